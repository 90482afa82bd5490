package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"time"
)

// The JUnit XML shape CI systems read (Jenkins, GitLab, GitHub test
// reporters): a testsuite per runner, a testcase per property.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProps struct {
	Props []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name       string        `xml:"name,attr"`
	Classname  string        `xml:"classname,attr"`
	Time       string        `xml:"time,attr"`
	Properties *junitProps   `xml:"properties,omitempty"`
	Failure    *junitFailure `xml:"failure,omitempty"`
	Error      *junitFailure `xml:"error,omitempty"`
	Skipped    *junitSkipped `xml:"skipped,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) }

// WriteJUnit writes run as JUnit XML: a testsuite per runner (its profile
// and expectation as properties), a testcase per property (classname
// <runner>.<SPEC area>; the seed as the property allocsim.seed); a
// failure's text is the failure as printed, ending with its replay
// command; a property outside the runner's profile is skipped; a harness
// failure is an error. A mutant's expected failures are failures all the
// same: the suite's expectation is in the testsuite's properties.
func WriteJUnit(w io.Writer, run Run) error {
	out := junitSuites{Name: run.Suite}
	var total time.Duration
	for _, r := range run.Runners {
		s := junitSuite{Name: r.Name, Properties: []junitProperty{
			{Name: "profile", Value: r.Profile},
			{Name: "expect", Value: expectation(r)},
			{Name: "meets_expectation", Value: strconv.FormatBool(r.MeetsExpectation())},
		}}
		var elapsed time.Duration
		for _, p := range r.Properties {
			c := junitCase{Name: p.ID, Classname: r.Name + "." + p.Area(), Time: seconds(p.Elapsed)}
			if p.Seed != 0 {
				c.Properties = &junitProps{Props: []junitProperty{{Name: "allocsim.seed", Value: strconv.FormatUint(p.Seed, 10)}}}
			}
			switch p.Status {
			case Fail:
				c.Failure = &junitFailure{Message: p.Violation, Type: p.ID, Text: failureText(p)}
				s.Failures++
			case Error:
				c.Error = &junitFailure{Message: p.Violation, Type: "harness", Text: failureText(p)}
				s.Errors++
			case NotApplicable:
				c.Skipped = &junitSkipped{Message: "not in the " + r.Profile + " profile"}
				s.Skipped++
			}
			s.Tests++
			elapsed += p.Elapsed
			s.Cases = append(s.Cases, c)
		}
		s.Time = seconds(elapsed)
		total += elapsed
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Skipped += s.Skipped
		out.Suites = append(out.Suites, s)
	}
	out.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("encode junit: %w", err)
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	return nil
}

func expectation(r Runner) string {
	if r.ExpectFail {
		return "fail"
	}
	return "conform"
}

// failureText is a failure's message with its replay command last.
func failureText(p Property) string {
	text := p.Message
	if text == "" {
		text = p.Violation
	}
	if p.Replay != "" {
		text += "\nReplay: " + p.Replay
	}
	return text
}
