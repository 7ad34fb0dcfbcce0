/*
 * report/html_page.c - the shell of weft's HTML pages: one self-contained file,
 * its style and its script inline, no network, no CDN.
 *
 *   <!DOCTYPE html> ... <style>PAGE_STYLE</style> ...
 *   <script type="application/json" id="weft-data">{ the data }</script>
 *   <script>PAGE_SCRIPT</script>
 *
 * Why the data is JSON and the drawing is script: the C side says what
 * happened once (report_html.c: an execution, history_html.c: a history and
 * its check) and stays small; the page lays it out, links the views (hover or
 * click an operation: it lights up in the scenario, the lanes, the history and
 * the explanation) and zooms without a server.  A page opened with
 * `#op=N` selects operation N as a click would (how tests/html_report.sh
 * checks the linking in headless Chromium, and a link a person can share).
 * The page is a pure function of the data: no times, no addresses, so the
 * same input gives byte-equal pages.
 *
 * Data (every field optional but "title" and "history"):
 *   title, verdict, message, summary   strings for the header
 *   threads                            lanes of the interleaving (execution pages)
 *   final_thread                       row number of the final operation, or -1
 *   scenario [[{"call": "inc()", "op": 0}, ...], ...]   per thread; "op" indexes history (-1: never ran)
 *   steps [{"t": 0, "k": "begin|end|access|preempt|switch|note", "x": "load c.c:26 -> 0", "op": 0}]
 *   history [{"t": 0, "call": "inc()", "res": "0", "inv": 1, "ret": 10, "pending": false}]
 *   lin {"prefix": [0, 1], "stuck": 2, "observed": "1", "model": "2", "key": null} or null
 *                                      ("key": the failing key, a number, or a string
 *                                      when the ops type it: weft-check's kv keys)
 *   first_run                          a nondeterministic input's failing first run (text)
 *   fresh_run                          its passing run in a fresh process (text; runner/fresh.h)
 *   weak {"title": "...", "items": [{"step": 9, "t": 1, "x": "load a.c:9 -> 0", "why": "..."}]}
 *                                      weak reads / delayed commits (issue 18); their
 *                                      steps are marked in the lanes and link to them
 * The script is kept in this file as string constants so the library needs no
 * resource files at run time; it is plain ES2017 without dependencies.
 */
#include "report.h"

static const char page_style[] =
	":root{--z:1;--lz:1;font-family:system-ui,sans-serif;color:#222;background:#fafafa}\n"
	"body{margin:0 1.5em 2em}\n"
	"h1{font-size:1.3em;margin:.6em 0 .2em}h2{font-size:1.05em;margin:1.2em 0 .4em}\n"
	".verdict{font-weight:600;margin:.2em 0}.verdict.fail{color:#b00020}.verdict.pass{color:#1b7f3b}\n"
	".summary,.note{color:#555;margin:.2em 0}\n"
	"code,.mono,.lanes,.timeline,.chip{font-family:ui-monospace,Menlo,Consolas,monospace}\n"
	"#toolbar{position:sticky;top:0;background:#fafafa;padding:.4em 0;border-bottom:1px solid #ddd;z-index:2}\n"
	"#toolbar button{margin-right:.3em}#selected{margin-left:1em;color:#333}\n"
	".row{margin:.2em 0;white-space:nowrap}.name{display:inline-block;min-width:9em;color:#555}\n"
	".chip{display:inline-block;padding:0 .4em;margin:0 .2em .2em 0;border:1px solid #bbb;"
	"border-radius:3px;background:#fff;cursor:pointer}\n"
	".lanes{border-collapse:collapse;font-size:calc(var(--lz)*13px)}\n"
	".lanes th{text-align:left;padding:.1em .8em;border-bottom:1px solid #999;position:sticky;top:2.2em;background:#fafafa}\n"
	".lanes td{padding:0 .8em;white-space:nowrap;border-left:1px solid #e4e4e4}\n"
	".lanes td.num{color:#888;text-align:right;border-left:0}\n"
	".lanes tr.step td.op{cursor:pointer}\n"
	".k-begin,.k-end{font-weight:600}.k-preempt{color:#b00020;font-weight:600}\n"
	".k-switch{color:#666}.k-note{color:#8a5a00}\n"
	"tr.preempt td{border-bottom:2px dashed #b00020}\n"
	"tr.fold td{color:#666;font-style:italic}tr.fold button{font:inherit;cursor:pointer}\n"
	".timeline{position:relative;font-size:12px;margin-left:10em}\n"
	".hrow{position:relative;height:1.9em;border-bottom:1px dotted #ddd}\n"
	".hrow .name{position:absolute;left:-10em;top:.35em}\n"
	".bar{position:absolute;top:.25em;height:1.3em;line-height:1.3em;box-sizing:border-box;"
	"border:1px solid #556;border-radius:3px;background:#e8ecf7;overflow:hidden;"
	"white-space:nowrap;padding:0 .3em;cursor:pointer}\n"
	".bar.pending{border-right:2px dashed #556;border-radius:3px 0 0 3px}\n"
	".bar.in-prefix{background:#dff3e4}.bar.stuck{background:#fbe0e3;border-color:#b00020}\n"
	".axis{position:relative;height:1.6em;color:#888}.tick{position:absolute;top:0;"
	"border-left:1px solid #bbb;padding-left:2px}\n"
	".hl{outline:2px solid #e08a00;background:#ffe7b3 !important}\n"
	".hover{outline:2px solid #f0b54a}\n"
	"tr.weak td.k-access{background:#e9defa}ul.weak li{margin:.3em 0}\n"
	"ol.prefix{margin:.2em 0}pre.first{background:#fff;border:1px solid #ddd;padding:.5em;overflow:auto}\n";

/* Lays the data out; see the comment at the top for the fields. */
static const char page_script[] =
	"(function(){'use strict';\n"
	"var D=JSON.parse(document.getElementById('weft-data').textContent);\n"
	"var root=document.getElementById('weft');\n"
	"function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;"
	"if(text!=null)e.textContent=text;return e;}\n"
	"function tagOp(e,op){if(op!=null&&op>=0){e.setAttribute('data-op',op);e.classList.add('op');}return e;}\n"
	"function section(id,title){var s=el('section');s.id=id;s.appendChild(el('h2',null,title));"
	"root.appendChild(s);return s;}\n"
	"var H=D.history||[];\n"
	"function opText(i){var h=H[i];return 'thread '+h.t+'  '+h.call+' = '+(h.pending?'? (pending)':h.res);}\n"
	/* header and toolbar */
	"function header(){root.appendChild(el('h1',null,D.title));\n"
	" if(D.verdict){var pass=D.verdict==='pass'||D.verdict==='linearizable';\n"
	"  root.appendChild(el('p','verdict '+(pass?'pass':'fail'),(pass?'PASS':D.verdict==='unknown'?'UNKNOWN':'FAIL '+D.verdict)+"
	"(D.message?': '+D.message:'')));}\n"
	" if(D.summary)root.appendChild(el('p','summary',D.summary));\n"
	" var tb=el('div');tb.id='toolbar';\n"
	" [['zoom history \\u2212',function(){zoom('--z',1/1.5);}],['zoom history +',function(){zoom('--z',1.5);}],"
	"['steps smaller',function(){zoom('--lz',1/1.25);}],['steps larger',function(){zoom('--lz',1.25);}],"
	"['clear selection',function(){select(-1);}]].forEach(function(b){"
	"var x=el('button',null,b[0]);x.addEventListener('click',b[1]);tb.appendChild(x);});\n"
	" tb.appendChild(el('span',null,'hover or click an operation to see it in every view'));\n"
	" var s=el('span');s.id='selected';tb.appendChild(s);root.appendChild(tb);}\n"
	"function zoom(v,f){var st=document.documentElement.style;"
	"var z=parseFloat(st.getPropertyValue(v)||'1')*f;st.setProperty(v,String(Math.min(20,Math.max(0.05,z))));}\n"
	/* scenario */
	"function scenario(){if(!D.scenario)return;var s=section('scenario','scenario');\n"
	" D.scenario.forEach(function(calls,t){var r=el('div','row');r.appendChild(el('span','name','thread '+t));\n"
	"  if(!calls.length)r.appendChild(el('span','note','(no operations)'));\n"
	"  calls.forEach(function(c){r.appendChild(tagOp(el('span','chip',c.call),c.op));});s.appendChild(r);});}\n"
	/* interleaving: a spin repeats up to 4 steps; shown once, the repeats folded (as report.c) */
	"function same(a,b){return a.t===b.t&&a.k===b.k&&a.x===b.x&&a.op===b.op;}\n"
	"function repeats(S,i,p){var k=0;for(;i+(k+2)*p<=S.length;k++)"
	"for(var j=0;j<p;j++)if(!same(S[i+j],S[i+(k+1)*p+j]))return k;return k;}\n"
	"function foldAt(S,i){var best=null;for(var p=1;p<=4;p++){var k=repeats(S,i,p);"
	"if(k>=2&&(!best||k*p>best.k*best.p))best={p:p,k:k};}return best;}\n"
	"function stepRow(S,i,n){var s=S[i],tr=el('tr','step'+(s.k==='preempt'?' preempt':''));"
	"tr.setAttribute('data-step',i+1);tr.appendChild(el('td','num',String(i+1)));\n"
	" for(var t=0;t<n;t++){var td=el('td');if(t===s.t){td.className='k-'+s.k;td.textContent=s.x;tagOp(td,s.op);}"
	"tr.appendChild(td);}return tr;}\n"
	"function foldRow(rows,f,from,n){var tr=el('tr','fold'),td=el('td',null,'');tr.appendChild(td);\n"
	" var c=el('td');c.colSpan=n;var b=el('button',null,'\\u223c the '+f.p+' step'+(f.p===1?'':'s')+' above, '"
	"+f.k+' more times (steps '+(from+1)+'-'+(from+f.k*f.p)+'): show');\n"
	" b.addEventListener('click',function(){var hide=!rows[0].hidden;rows.forEach(function(r){r.hidden=hide;});"
	"b.textContent=b.textContent.replace(/: (show|hide)$/,hide?': show':': hide');});\n"
	" c.appendChild(b);tr.appendChild(c);return tr;}\n"
	"function lanes(){if(!D.steps)return;var s=section('interleaving','interleaving (one lane per thread; "
	"a dashed line is a preemption)');\n"
	" var n=D.threads,S=D.steps,tbl=el('table','lanes'),head=el('tr');head.appendChild(el('th',null,'step'));\n"
	" for(var t=0;t<n;t++)head.appendChild(el('th',null,'thread '+t));var th=el('thead');th.appendChild(head);"
	"tbl.appendChild(th);\n"
	" var body=el('tbody');tbl.appendChild(body);\n"
	" for(var i=0;i<S.length;){var f=foldAt(S,i),shown=f?f.p:1;\n"
	"  for(var j=0;j<shown;j++)body.appendChild(stepRow(S,i+j,n));i+=shown;if(!f)continue;\n"
	"  var rows=[];for(j=0;j<f.k*f.p;j++){var r=stepRow(S,i+j,n);r.classList.add('folded');r.hidden=true;rows.push(r);}\n"
	"  body.appendChild(foldRow(rows,f,i,n));rows.forEach(function(r){body.appendChild(r);});i+=f.k*f.p;}\n"
	" s.appendChild(tbl);}\n"
	/* history: distinct times in order, each a column; a return pushed right until its label fits */
	"function history(){if(!H.length)return;var s=section('history','history (each operation from its "
	"start to its return; time = '+(D.steps?'step':'the file\\'s order')+')');\n"
	" var times=[];H.forEach(function(h){times.push(h.inv);if(!h.pending)times.push(h.ret);});\n"
	" times=times.filter(function(v,i,a){return a.indexOf(v)===i;}).sort(function(a,b){return a-b;});\n"
	" var col={},label=H.map(function(h){return h.call+(h.pending?' pending':' = '+h.res);});\n"
	" times.forEach(function(tm,k){var c=k?col[times[k-1]]+2:0;H.forEach(function(h,i){"
	"if(!h.pending&&h.ret===tm&&h.inv<h.ret)c=Math.max(c,col[h.inv]+label[i].length+3);});col[tm]=c;});\n"
	" var edge=0;H.forEach(function(h){if(!h.pending)edge=Math.max(edge,col[h.ret]);});\n"
	" var rows=H.map(function(h){return h.t;}).filter(function(v,i,a){return a.indexOf(v)===i;})"
	".sort(function(a,b){return a-b;});\n"
	" if(D.threads)for(var t=0;t<D.threads;t++)if(rows.indexOf(t)<0)rows.push(t);rows.sort(function(a,b){return a-b;});\n"
	" var tl=el('div','timeline');\n"
	" function at(c){return 'calc(var(--z)*'+c+'ch)';}\n"
	" rows.forEach(function(t){var r=el('div','hrow');r.appendChild(el('span','name','thread '+t+"
	"(t===D.final_thread?' (final)':'')));\n"
	"  H.forEach(function(h,i){if(h.t!==t)return;var b=tagOp(el('div','bar'+(h.pending?' pending':''),label[i]),i);\n"
	"   var a=col[h.inv],e=h.pending?Math.max(edge,a+label[i].length+2)+4:Math.max(col[h.ret],a+1);\n"
	"   b.style.left=at(a);b.style.width=at(e-a);b.title=label[i]+' (time '+h.inv+'-'+(h.pending?'':h.ret)+')';"
	"r.appendChild(b);});tl.appendChild(r);});\n"
	" var ax=el('div','axis'),last=-1e9;times.forEach(function(tm){if(col[tm]-last<4)return;last=col[tm];"
	"var k=el('span','tick',String(tm));k.style.left=at(col[tm]);ax.appendChild(k);});tl.appendChild(ax);\n"
	" var w=el('div');w.style.width=at(edge+30);w.style.height='1px';tl.appendChild(w);s.appendChild(tl);}\n"
	/* the oracle's explanation */
	"function explanation(){var L=D.lin,s;if(!L){if(D.steps&&D.verdict&&D.verdict!=='pass'){"
	"s=section('linearizability','explanation');s.appendChild(el('p','note','the verdict is '+D.verdict+"
	"', not a linearizability failure: see the message above and the interleaving'));}return;}\n"
	" s=section('linearizability','linearizability: why no order of the operations fits the model');\n"
	" if(L.key!=null)s.appendChild(el('p',null,'in the sub-history of key '+L.key));\n"
	" s.appendChild(el('p',null,'longest linearizable prefix: '+(L.prefix.length?L.prefix.length:'none')+' of '+"
	"H.length+' operations'));\n"
	" var ol=el('ol','prefix');L.prefix.forEach(function(i){var li=el('li');"
	"li.appendChild(tagOp(el('span','chip',opText(i)),i));ol.appendChild(li);"
	"document.querySelectorAll('.bar[data-op=\"'+i+'\"]').forEach(function(b){b.classList.add('in-prefix');});});\n"
	" s.appendChild(ol);if(L.stuck==null)return;var p=el('p',null,'cannot be placed next: ');\n"
	" p.appendChild(tagOp(el('span','chip',opText(L.stuck)),L.stuck));"
	"p.appendChild(document.createTextNode(' observed '+L.observed+', but the model gives '+L.model));s.appendChild(p);\n"
	" document.querySelectorAll('.bar[data-op=\"'+L.stuck+'\"]').forEach(function(b){b.classList.add('stuck');});}\n"
	/* weak memory: a section listing each weak read or delayed commit, its step marked in the lanes */
	"function weak(){if(!D.weak)return;var s=section('weak-memory',D.weak.title),ul=el('ul','weak');\n"
	" D.weak.items.forEach(function(w){var li=el('li');var a=el('a','mono','step '+w.step+', thread '+w.t+': '+w.x);"
	"a.href='#step-'+w.step;li.appendChild(a);li.appendChild(el('div','note',w.why));ul.appendChild(li);\n"
	"  var tr=document.querySelector('tr[data-step=\"'+w.step+'\"]');if(tr){tr.classList.add('weak');tr.id='step-'+w.step;"
	"tr.hidden=false;tr.title=w.why;}});\n"
	" s.appendChild(ul);}\n"
	"function firstRun(){if(!D.first_run)return;var s=section('first-run','the first run of this input failed; its report');"
	"s.appendChild(el('pre','first',D.first_run));}\n"
	"function freshRun(){if(!D.fresh_run)return;var s=section('fresh-run','in a fresh process this input passes; that run\\'s report');"
	"s.appendChild(el('pre','first',D.fresh_run));}\n"
	/* linking: hover lights an operation up everywhere, a click pins it */
	"var pinned=-1;\n"
	"function each(op,f){document.querySelectorAll('[data-op=\"'+op+'\"]').forEach(f);}\n"
	"function select(op){if(pinned>=0)each(pinned,function(e){e.classList.remove('hl');});pinned=op;\n"
	" var info=document.getElementById('selected');info.textContent='';if(op<0)return;"
	"each(op,function(e){e.classList.add('hl');});\n"
	" info.textContent='operation '+op+': '+opText(op)+(H[op].pending?'':' (time '+H[op].inv+'-'+H[op].ret+')');}\n"
	"function opOf(ev){var t=ev.target.closest?ev.target.closest('[data-op]'):null;return t?+t.getAttribute('data-op'):-1;}\n"
	"function link(){root.addEventListener('click',function(ev){var op=opOf(ev);if(op>=0)select(op===pinned?-1:op);});\n"
	" root.addEventListener('mouseover',function(ev){var op=opOf(ev);if(op>=0)each(op,function(e){e.classList.add('hover');});});\n"
	" root.addEventListener('mouseout',function(ev){var op=opOf(ev);if(op>=0)each(op,function(e){e.classList.remove('hover');});});\n"
	" var m=/^#op=(\\d+)$/.exec(location.hash);if(m){var e=document.querySelector('[data-op=\"'+m[1]+'\"]');"
	"if(e)e.dispatchEvent(new MouseEvent('click',{bubbles:true}));}}\n"
	"header();scenario();lanes();weak();history();explanation();firstRun();freshRun();link();\n"
	"document.body.setAttribute('data-rendered','yes');\n"
	"})();\n";

/* Text inside an HTML element or attribute. */
void report_html_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

/*
 * A JSON string that is also safe inside <script>: '<', '>' and '&' as \u
 * escapes, so no message can close the script element early; bytes outside
 * well-formed UTF-8 as \ufffd, as in the JSON report (report_json.c).
 */
void report_html_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		size_t n = report_utf8_len(p);
		if (n != 1) {
			if (n)
				fwrite(p, 1, n, out);
			else
				fputs("\\ufffd", out);
			p += n ? n - 1 : 0;
		} else if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&' || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

void report_html_begin(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"weft\">\n<title>weft: ", out);
	report_html_text(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main id=\"weft\"></main>\n"
		"<noscript>This page draws its views with JavaScript; the same report as text: "
		"NAME_replay INPUT.</noscript>\n"
		"<script type=\"application/json\" id=\"weft-data\">\n", page_style);
}

void report_html_end(FILE *out)
{
	fprintf(out, "\n</script>\n<script>\n%s</script>\n</body>\n</html>\n", page_script);
}
