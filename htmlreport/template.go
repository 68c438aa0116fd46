package htmlreport

// pageHTML is the page: inline CSS, no script, no external resource.
const pageHTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="clusterperf {{.Version}}">
<title>{{.Title}}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:1em 1.5em;color:#1b1b1b;background:#fff}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.15em;margin:1.4em 0 .4em;border-bottom:1px solid #ddd}
h3{font-size:1em;margin:1em 0 .3em}
dl.meta{display:grid;grid-template-columns:max-content auto;gap:.2em 1em;margin:.5em 0}dl.meta dt{font-weight:600}dl.meta dd{margin:0}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;border:1px solid #e3e6ea;padding:.6em;overflow:auto;max-height:30em}
table{border-collapse:collapse;margin:.3em 0 1em;font-variant-numeric:tabular-nums}
th,td{border:1px solid #d6d9dd;padding:.2em .55em;text-align:right;white-space:nowrap}th{background:#f0f2f4;position:sticky;top:0}
div.tbl{overflow:auto;max-height:32em;margin:.3em 0 1em;max-width:100%}div.tbl table{margin:0}
td:first-child,th:first-child{text-align:left}
tr.hl td{background:#fff3c4;font-weight:600}
.method-box{display:grid;gap:.25em;background:#f3f7fb;border:1px solid #b9cde0;border-left:5px solid #1f3b57;padding:.55em .9em;margin:.6em 0 1em;font-size:15px}
.answer{background:#eef7ee;border-left:5px solid #0a6b2f;padding:.4em .9em;margin:.6em 0;font-size:16px}.answer p{margin:.2em 0}
.exact{color:#0a6b2f;font-weight:600}.approximate{color:#9a5b00;font-weight:600}
ul.warn li{color:#8a1c1c}
figure{margin:1em 0}figure svg,figure img{max-width:100%;height:auto;border:1px solid #eee}
figcaption{font-weight:600;margin-bottom:.3em}
details{margin:.4em 0}
</style></head><body>
<h1>{{.Title}}</h1>
<dl class="meta">
{{if .Command}}<dt>Command</dt><dd><code>{{.Command}}</code></dd>{{end}}
{{if .Version}}<dt>clusterperf</dt><dd>{{.Version}}</dd>{{end}}
</dl>
{{if .Answer}}<div class="answer" id="answer"><p class="summary"><b>{{.Answer.Summary}}</b></p>{{if .Answer.Details}}<ul>{{range .Answer.Details}}<li>{{.}}</li>{{end}}</ul>{{end}}</div>
{{end}}<div class="method-box" id="method-box">
<div><b>Method</b> <span id="method">{{if .Method}}{{.Method}}{{else}}not stated{{end}}</span></div>
<div><b>Result</b> <span id="exact" class="{{.ExactText}}">{{.ExactText}}</span></div>
{{if .ErrorEstimate}}<div id="error-estimate"><b>Error estimate</b> {{range $i, $f := .ErrorEstimate}}{{if $i}}; {{end}}<span class="ee" data-name="{{$f.Name}}">{{$f.Name}}: {{$f.Value}}</span>{{end}}</div>
{{else if .Approximate}}<div id="error-estimate" class="approximate"><b>Error estimate</b> not stated</div>{{end}}
</div>
{{if .Warnings}}<h2>Warnings</h2><ul class="warn">{{range .Warnings}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Tables}}<h2>Results</h2>{{range $t := .Tables}}
{{if $t.Title}}<h3>{{$t.Title}}</h3>{{end}}
<div class="tbl"><table class="result"><thead><tr>{{range $t.Header}}<th>{{.}}</th>{{end}}</tr></thead><tbody>
{{range $i, $r := $t.Rows}}<tr{{if hl $t $i}} class="hl"{{end}}>{{range $r}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody></table></div>{{end}}{{end}}
{{if .PlotsView}}<h2>Plots</h2>{{range .PlotsView}}<figure class="plot"><figcaption>{{.Title}}</figcaption>
{{if .SVG}}{{.SVG}}{{else}}<img alt="{{.Title}}" src="{{.PNG}}">{{end}}</figure>{{end}}{{end}}
{{if .Validation}}<h2>Validation</h2>{{range $t := .Validation}}
{{if $t.Title}}<h3>{{$t.Title}}</h3>{{end}}
<div class="tbl"><table class="validation"><thead><tr>{{range $t.Header}}<th>{{.}}</th>{{end}}</tr></thead><tbody>
{{range $r := $t.Rows}}<tr>{{range $r}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody></table></div>{{end}}{{end}}
{{if .Notes}}<h2>Notes</h2><ul>{{range .Notes}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Inputs}}<h2>Inputs</h2>{{range .Inputs}}<details{{if .Content}}{{if lt (lines .Content) 40}} open{{end}}{{end}}><summary><code>{{.Name}}</code>{{if .Summary}}: {{.Summary}}{{end}}</summary>
{{if .Content}}<pre>{{.Content}}</pre>{{end}}</details>{{end}}{{end}}
{{if .JSONText}}<h2>Result document (JSON)</h2><details><summary>show</summary><pre id="json">{{.JSONText}}</pre></details>{{end}}
</body></html>
`
