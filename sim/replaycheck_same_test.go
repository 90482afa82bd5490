package sim

import (
	"reflect"
	"testing"
	"time"

	"github.com/allocsim/allocsim/sim/trace"
)

// CompareRuns skips encoding records that are the same field for field:
// a field added to trace.Record must be compared.
func TestSameRecordsComparesEveryField(t *testing.T) {
	typ := reflect.TypeFor[trace.Record]()
	for i := range typ.NumField() {
		var r trace.Record
		f := reflect.ValueOf(&r).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Slice:
			f.SetBytes([]byte("1"))
		case reflect.Struct:
			f.Set(reflect.ValueOf(time.Unix(1, 0)))
		default:
			t.Fatalf("field %s of kind %s: teach this test to set it", typ.Field(i).Name, f.Kind())
		}
		if sameRecords([]trace.Record{r}, []trace.Record{{}}) {
			t.Errorf("records differing in %s are the same", typ.Field(i).Name)
		}
		if !sameRecords([]trace.Record{r}, []trace.Record{r}) {
			t.Errorf("a record differs from itself in %s", typ.Field(i).Name)
		}
	}
}
