// The page's language (?lang=zh|en) is passed on to every figure.
  const lang = new URLSearchParams(location.search).get("lang") === "en" ? "en" : "zh";
  document.documentElement.lang = lang === "en" ? "en" : "zh-CN";
  const other = document.getElementById("switch");
  other.href = "?lang=" + (lang === "en" ? "zh" : "en");
  other.textContent = lang === "en" ? "中文" : "English";
  for (const f of document.querySelectorAll("iframe[data-src]")) {
    // A figure may carry its scenario with Chinese labels for the Chinese page.
    const src = (lang === "zh" && f.dataset.srcZh) || f.dataset.src;
    const [path, hash] = src.split("#");
    f.src = path + "&lang=" + lang + "#" + hash;
  }
  // Each figure reports its content's height whenever it changes, growing or
  // shrinking; its frame takes that height, so every figure shows whole.
  // Only messages from this origin, from one of these frames, count.
  addEventListener("message", (e) => {
    if (e.origin !== location.origin || !e.data || e.data.type !== "attention-lab:height") return;
    const height = Number(e.data.height);
    if (!(height > 0 && height < 20000)) return;
    for (const f of document.querySelectorAll("iframe")) {
      if (f.contentWindow === e.source) f.style.height = Math.ceil(height) + "px";
    }
  });
