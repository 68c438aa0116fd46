package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Answer is the answer to the question a command was asked, put before everything else a
// result holds: one sentence (Summary) and the facts it rests on. It knows no domain: the
// library packages that compute a result fill it (package answer), report only renders it.
//
// JSON: {"summary": "...", "details": [...], "facts": {"bottleneck": "disk",
// "throughput_ceiling_per_s": 12.5, ...}} — a fact's name is a snake_case key with its unit
// in the name, as every key of the output contract; its value a number or words (a
// station's name); the keys keep the order the facts were added in.
//
// Summary fits one line of the table format (at most TextWidth characters: the builders in
// package answer keep it so); what does not fit is in Details, sentences printed below it.
type Answer struct {
	Summary string   `json:"summary"`
	Details []string `json:"details"`
	Facts   Facts    `json:"facts"`
}

// Facts is an answer's facts in order; JSON: one object, a key per fact.
type Facts []Fact

// MarshalJSON writes the facts as one object in their order.
func (fs Facts) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.Name)
		if err != nil {
			return nil, err
		}
		var v []byte
		if f.Value != nil {
			v, err = json.Marshal(*f.Value)
		} else {
			v, err = json.Marshal(f.Text)
		}
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the object MarshalJSON writes, keeping the keys' order.
func (fs *Facts) UnmarshalJSON(b []byte) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("answer facts: want an object")
	}
	*fs = nil
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return err
		}
		name, _ := t.(string)
		v, err := d.Token()
		if err != nil {
			return err
		}
		switch x := v.(type) {
		case json.Number:
			f, err := x.Float64()
			if err != nil {
				return err
			}
			*fs = append(*fs, Fact{Name: name, Value: &f})
		case string:
			*fs = append(*fs, Fact{Name: name, Text: x})
		default:
			return fmt.Errorf("answer facts: %q: want a number or a string", name)
		}
	}
	_, err := d.Token()
	return err
}

// JSONSchema is the schema of the facts object (report.Schema): snake_case keys, each a
// number or a string.
func (Facts) JSONSchema() map[string]any {
	return map[string]any{"type": "object", "additionalProperties": map[string]any{"type": []any{"number", "string"}}}
}

// Fact is one structured part of an answer: a number with its unit in Name, or Text.
type Fact struct {
	Name  string   `json:"name"`
	Value *float64 `json:"value,omitempty"`
	Text  string   `json:"text,omitempty"`
}

// Num adds a numeric fact (name carries the unit, e.g. "response_time_s").
func (a *Answer) Num(name string, v float64) {
	a.Facts = append(a.Facts, Fact{Name: name, Value: &v})
}

// Word adds a fact in words.
func (a *Answer) Word(name, text string) {
	a.Facts = append(a.Facts, Fact{Name: name, Text: text})
}

// Fact returns the fact called name, if the answer has it.
func (a *Answer) Fact(name string) (Fact, bool) {
	for _, f := range a.Facts {
		if f.Name == name {
			return f, true
		}
	}
	return Fact{}, false
}

// Answered is embedded first in a command's result value: its JSON gains the top-level
// "answer" object, and the table output starts with the answer's summary (writeText).
type Answered struct {
	Answer Answer `json:"answer"`
}

// TheAnswer returns the answer of a result that embeds Answered.
func (a *Answered) TheAnswer() *Answer { return &a.Answer }

// answerer is a Document that carries an Answer.
type answerer interface{ TheAnswer() *Answer }

// AnswerOf returns doc's answer, or nil when doc carries none.
func AnswerOf(doc any) *Answer {
	if a, ok := doc.(answerer); ok {
		return a.TheAnswer()
	}
	return nil
}

// writeAnswer writes the summary as the first line, then the details wrapped at TextWidth
// (two-space indent), then a blank line; nothing when there is no summary. The facts are
// the details' numbers, in the JSON only (every detail once).
func writeAnswer(w io.Writer, a *Answer) error {
	if a == nil || strings.TrimSpace(a.Summary) == "" {
		return nil
	}
	var b strings.Builder
	b.WriteString(strings.TrimSpace(a.Summary) + "\n")
	for _, d := range a.Details {
		for _, l := range WrapText("  "+d, TextWidth, "    ") {
			b.WriteString(l + "\n")
		}
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}
