package report

import "encoding/json"

// tableJSON is a table as the explorer serves it and a page embeds it: title, columns,
// rows (as people read them) and the highlighted rows.
type tableJSON struct {
	Title     string     `json:"title"`
	Columns   []string   `json:"columns"`
	Rows      [][]string `json:"rows"`
	Highlight []int      `json:"highlight,omitempty"`
}

// MarshalJSON writes the table as {"title", "columns", "rows", "highlight"}: the shown
// cells, not the CSV's full-precision ones nor the rendering options.
func (t Table) MarshalJSON() ([]byte, error) {
	return json.Marshal(tableJSON{Title: t.Title, Columns: t.Header, Rows: t.Rows, Highlight: t.Highlight})
}
