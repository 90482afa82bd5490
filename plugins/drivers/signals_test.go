package drivers

import (
	"testing"

	"github.com/shoenig/test/must"
)

func TestParseSignal(t *testing.T) {
	cases := []struct {
		in      string
		canon   string
		num     int
		wantErr string
	}{
		{in: "SIGINT", canon: "SIGINT", num: 2},
		{in: "sigterm", canon: "SIGTERM", num: 15},
		{in: "HUP", canon: "SIGHUP", num: 1},
		{in: " kill ", canon: "SIGKILL", num: 9},
		{in: "SIGUSR1", canon: "SIGUSR1", num: 10},
		{in: "SIGUSR2", canon: "SIGUSR2", num: 12},
		{in: "SIGQUIT", canon: "SIGQUIT", num: 3},
		{in: "SIGWINCH", canon: "SIGWINCH", num: 28},
		{in: "SIGBOGUS", wantErr: `unknown signal "SIGBOGUS"`},
		{in: "", wantErr: `unknown signal ""`},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			canon, num, err := ParseSignal(tc.in)
			if tc.wantErr != "" {
				must.EqError(t, err, tc.wantErr)
				return
			}
			must.NoError(t, err)
			must.Eq(t, tc.canon, canon)
			must.Eq(t, tc.num, num)
		})
	}
}

func TestTerminatesByDefault(t *testing.T) {
	for _, s := range []string{"SIGINT", "SIGTERM", "SIGHUP", "SIGUSR1", "SIGKILL", "SIGQUIT"} {
		must.True(t, TerminatesByDefault(s), must.Sprint(s))
	}
	for _, s := range []string{"SIGCHLD", "SIGCONT", "SIGURG", "SIGWINCH", "SIGSTOP", "SIGTSTP"} {
		must.False(t, TerminatesByDefault(s), must.Sprint(s))
	}
}
