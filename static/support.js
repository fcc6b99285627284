// Starts the app, and says so when this browser cannot run it.
//
// The app's start (its module script and the preloads of its code) waits in
// <template id=attention-lab-start> (scripts/prerender.mjs). This deferred
// script puts it into the page: at once, or, when the pre-rendered first
// screen is shown, after the frame that paints it, so that first paint does
// not share the machine with fetching and compiling the code
// (docs/performance.md, "First paint"). A page without the template (a
// build without the pre-rendered copies) has its module script in <head>.
(function () {
  var d = document;
  var t = d.getElementById('attention-lab-start');
  if (!t || !('content' in t)) return;
  var started = false;
  function start() {
    if (started) return;
    started = true;
    t.parentNode.removeChild(t);
    d.head.appendChild(d.importNode(t.content, true));
  }
  try {
    // A hidden tab paints no frame until it is shown: it starts at once,
    // and so does a tab hidden before its first frame.
    if (d.documentElement.hasAttribute('data-pre') && d.visibilityState !== 'hidden') {
      requestAnimationFrame(function () { setTimeout(start, 0); });
      d.addEventListener('visibilitychange', function () { if (d.visibilityState === 'hidden') start(); });
    } else {
      start();
    }
  } catch (e) {
    // Too old a browser for this: the check below says so.
  }
})();

// Runs before the app (a plain script, so even a browser without modules
// runs it): if this browser cannot run the app's WebAssembly, say so in
// both languages instead of leaving the page blank. The app's kernels use
// WebAssembly SIMD: Safari 16.4, Firefox 89, Chrome 91 and later.
(function () {
  // A tiny module with one SIMD instruction (i8x16.splat, i8x16.popcnt).
  var simd = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11];
  var ok = false;
  try {
    ok = typeof WebAssembly === 'object' && WebAssembly.validate(new Uint8Array(simd));
  } catch (e) {
    ok = false;
  }
  if (ok) return;
  function show() {
    var box = document.createElement('div');
    box.className = 'unsupported';
    box.setAttribute('role', 'alert');
    box.setAttribute('data-unsupported', '');
    var zh = document.createElement('p');
    zh.lang = 'zh-CN';
    zh.textContent = '这个浏览器无法运行注意力实验室：它需要 WebAssembly SIMD（Safari 16.4、Firefox 89、Chrome 91 或更新的版本）。请更新浏览器，或换一个浏览器打开。';
    var en = document.createElement('p');
    en.lang = 'en';
    en.textContent = 'This browser cannot run Attention Lab: it needs WebAssembly SIMD (Safari 16.4, Firefox 89, Chrome 91 or newer). Please update the browser or open the page in another one.';
    box.appendChild(zh);
    box.appendChild(en);
    document.body.insertBefore(box, document.body.firstChild);
  }
  if (document.body) show();
  else document.addEventListener('DOMContentLoaded', show);
})();

// When the app's WebAssembly fails (a trap, or a panic in Rust: a bug not
// found yet), the module cannot answer any more. Rather than leave a page
// that looks alive and does nothing, this says so in the reader's language
// (the page's lang, which the app keeps), that their work is kept (the app
// writes it to this browser's storage after every change), and offers to
// reload. Plain script, so it needs nothing of the failed module: a trap
// thrown out of the module (from an event, a frame or a promise callback)
// arrives here as an error event or an unhandled rejection.
(function () {
  var shown = false;
  function failed() {
    if (shown || !document.body) return;
    shown = true;
    var d = document;
    var zh = (d.documentElement.getAttribute('lang') || 'zh').toLowerCase().indexOf('zh') === 0;
    var words = zh
      ? ['出错了', '页面的程序遇到了一个错误，停止了运行。你的工作已经保存在这个浏览器里：重新加载页面，就能从最后一次修改接着做。', '重新加载']
      : ['Something went wrong', 'The page\u2019s program hit an error and stopped. Your work is saved in this browser: reload the page to carry on from your last change.', 'Reload'];
    var box = d.createElement('div');
    box.className = 'failure';
    box.setAttribute('role', 'alertdialog');
    box.setAttribute('aria-modal', 'true');
    box.setAttribute('aria-labelledby', 'failure-title');
    box.setAttribute('aria-describedby', 'failure-text');
    box.setAttribute('data-failure', '');
    var inner = d.createElement('div');
    var h = d.createElement('h2');
    h.id = 'failure-title';
    h.textContent = words[0];
    var p = d.createElement('p');
    p.id = 'failure-text';
    p.textContent = words[1];
    var b = d.createElement('button');
    b.type = 'button';
    b.setAttribute('data-control', 'reload');
    b.textContent = words[2];
    b.onclick = function () { location.reload(); };
    inner.appendChild(h);
    inner.appendChild(p);
    inner.appendChild(b);
    box.appendChild(inner);
    d.body.appendChild(box);
    d.documentElement.setAttribute('data-failed', '');
    b.focus();
  }
  function isTrap(e) {
    return typeof WebAssembly === 'object' && e instanceof WebAssembly.RuntimeError;
  }
  addEventListener('error', function (e) { if (isTrap(e.error)) failed(); });
  addEventListener('unhandledrejection', function (e) { if (isTrap(e.reason)) failed(); });
})();
