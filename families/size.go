package families

import (
	"reflect"
	"strings"
)

// MaxTasksPerRun is the most tasks a run's sequence may hold: a config (or a Python caller) that
// asks for more is refused before anything is drawn, instead of the draw exhausting the memory.
// The paper's runs hold 20 to 100 tasks.
const MaxTasksPerRun = 1_000_000

// TasksPerRun is what the parameters p say of the number of tasks of a run before anything is
// drawn: their count, per_size × len(sizes) and repeat multiplied (repeat × the sum of the parts'
// for a mixed family). A family whose tasks come from a file counts the file as one task, so the
// figure is a lower bound there; it saturates at the largest int64.
func TasksPerRun(p Params) int64 {
	if m, ok := p.(*MixedParams); ok {
		sum := int64(0)
		for _, part := range m.Parts {
			if part.Params != nil {
				sum = satAdd(sum, TasksPerRun(part.Params))
			}
		}
		return satMul(sum, int64(max(m.Repeat, 1)))
	}
	n := int64(1)
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
			if v.IsNil() {
				return
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			field := v.Field(i)
			switch {
			case f.Anonymous:
				walk(field)
			case (tag == "count" || tag == "per_size" || tag == "repeat") && field.CanInt() && field.Int() > 0:
				n = satMul(n, field.Int())
			case tag == "sizes" && field.Kind() == reflect.Slice && field.Len() > 0:
				n = satMul(n, int64(field.Len()))
			}
		}
	}
	walk(reflect.ValueOf(p))
	return n
}

func satMul(a, b int64) int64 {
	const most = int64(^uint64(0) >> 1)
	if a != 0 && b > most/a {
		return most
	}
	return a * b
}

func satAdd(a, b int64) int64 {
	const most = int64(^uint64(0) >> 1)
	if a > most-b {
		return most
	}
	return a + b
}
