package custom

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/temple-rl/temple/internal/atomicfile"
)

// Write writes tasks to path as JSON that Read reads back into identical models: the same
// outcomes in the same order, the same probabilities and rewards to the last bit. The bytes
// depend only on tasks. States and actions are written by name when the task names them, else by
// index. Outcomes of probability 0 are not stored in a model, so they are not written. The text
// is checked with the reader before it is written, so Write refuses what Read would refuse
// (a limit exceeded, a duplicate name); the file is written under a temporary name and renamed,
// so a failed write leaves no partial file behind.
func Write(path string, tasks []Task) error {
	fail := func(err error) error { return fmt.Errorf("custom: write %s: %w", path, err) }
	data, err := encode(tasks)
	if err != nil {
		return fail(err)
	}
	if _, err := parse(data, "json"); err != nil {
		return fail(err)
	}
	if err := atomicfile.Write(path, data); err != nil {
		return fail(err)
	}
	return nil
}

// encode lays the tasks out as indented JSON with one transition per line.
func encode(tasks []Task) ([]byte, error) {
	if len(tasks) == 0 {
		return nil, errors.New("no tasks to write")
	}
	var b bytes.Buffer
	b.WriteString("{\n  \"format\": ")
	writeString(&b, Format)
	b.WriteString(",\n  \"tasks\": [")
	for i := range tasks {
		if i > 0 {
			b.WriteString(",")
		}
		if err := encodeTask(&b, &tasks[i]); err != nil {
			return nil, fmt.Errorf("task %d (%q): %w", i, tasks[i].Name, err)
		}
	}
	b.WriteString("\n  ]\n}\n")
	return b.Bytes(), nil
}

func encodeTask(b *bytes.Buffer, t *Task) error {
	m := t.Model
	if m == nil {
		return errors.New("no model")
	}
	if t.StateNames != nil && len(t.StateNames) != m.S {
		return fmt.Errorf("%d state names for %d states", len(t.StateNames), m.S)
	}
	if t.ActionNames != nil && len(t.ActionNames) != m.A {
		return fmt.Errorf("%d action names for %d actions", len(t.ActionNames), m.A)
	}
	if err := checkName(t.Name); err != nil {
		return err
	}
	for i, name := range t.StateNames {
		if err := checkName(name); err != nil {
			return fmt.Errorf("StateNames[%d]: %w", i, err)
		}
	}
	for i, name := range t.ActionNames {
		if err := checkName(name); err != nil {
			return fmt.Errorf("ActionNames[%d]: %w", i, err)
		}
	}
	// writeRef writes state or action i: its name, or its index.
	writeRef := func(names []string, i int) {
		if names != nil {
			writeString(b, names[i])
		} else {
			b.WriteString(strconv.Itoa(i))
		}
	}
	// writeSpace writes the states or actions: their names, or their count.
	writeSpace := func(names []string, n int) {
		if names == nil {
			b.WriteString(strconv.Itoa(n))
			return
		}
		b.WriteString("[")
		for i, name := range names {
			if i > 0 {
				b.WriteString(", ")
			}
			writeString(b, name)
		}
		b.WriteString("]")
	}
	b.WriteString("\n    {\n      \"name\": ")
	writeString(b, t.Name)
	b.WriteString(",\n      \"states\": ")
	writeSpace(t.StateNames, m.S)
	b.WriteString(",\n      \"actions\": ")
	writeSpace(t.ActionNames, m.A)
	b.WriteString(",\n      \"start\": {")
	first := true
	for s, p := range m.StartDistribution() {
		if p == 0 {
			continue
		}
		if !first {
			b.WriteString(", ")
		}
		first = false
		// Keys of the start distribution are strings in JSON: the name, or the decimal index.
		if t.StateNames != nil {
			writeString(b, t.StateNames[s])
		} else {
			writeString(b, strconv.Itoa(s))
		}
		b.WriteString(": ")
		writeFloat(b, p)
	}
	b.WriteString("}")
	if term := m.TerminalStates(); term != nil {
		b.WriteString(",\n      \"terminal\": [")
		first := true
		for s, isTerminal := range term {
			if !isTerminal {
				continue
			}
			if !first {
				b.WriteString(", ")
			}
			first = false
			writeRef(t.StateNames, s)
		}
		b.WriteString("]")
	}
	b.WriteString(",\n      \"transitions\": [")
	first = true
	for s := range m.S {
		if m.Terminal(s) {
			continue
		}
		for a := range m.A {
			if !first {
				b.WriteString(",")
			}
			first = false
			b.WriteString("\n        {\"state\": ")
			writeRef(t.StateNames, s)
			b.WriteString(", \"action\": ")
			writeRef(t.ActionNames, a)
			b.WriteString(", \"outcomes\": [")
			for k, o := range m.Row(s, a) {
				if k > 0 {
					b.WriteString(", ")
				}
				b.WriteString("{\"next\": ")
				writeRef(t.StateNames, o.Next)
				b.WriteString(", \"p\": ")
				writeFloat(b, o.Prob)
				b.WriteString(", \"r\": ")
				writeFloat(b, o.Reward)
				b.WriteString("}")
			}
			b.WriteString("]}")
		}
	}
	b.WriteString("\n      ]\n    }")
	return nil
}

// writeString writes s as a JSON string, with <, > and & as they are (the default escapes them
// for HTML, which makes names harder to read). Encoding a string cannot fail; invalid UTF-8 would
// be replaced silently, which checkName rules out for every name written.
func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	b.Truncate(b.Len() - 1) // the newline Encode ends with
}

// writeFloat writes x in the shortest form that parses back to the same float64.
func writeFloat(b *bytes.Buffer, x float64) {
	b.Write(strconv.AppendFloat(nil, x, 'g', -1, 64))
}

// MarshalJSON writes t as one task object of the file format (an element of "tasks"), so that a
// task can travel inside another JSON document, such as a task-sequence file.
func (t Task) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := encodeTask(&b, &t); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// UnmarshalJSON reads one task object of the file format, with the checks and limits of Parse.
func (t *Task) UnmarshalJSON(data []byte) error {
	doc := append(append([]byte(`{"format":"`+Format+`","tasks":[`), data...), "]}"...)
	tasks, err := Parse(doc, "json")
	if err != nil {
		return err
	}
	*t = tasks[0]
	return nil
}
