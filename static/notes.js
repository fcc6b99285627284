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
  // Each figure reports its height; only messages from this origin count.
  addEventListener("message", (e) => {
    if (e.origin !== location.origin || !e.data || e.data.type !== "attention-lab:height") return;
    for (const f of document.querySelectorAll("iframe")) {
      // A figure taller than 760 px scrolls inside its frame.
      if (f.contentWindow === e.source) f.style.height = Math.min(760, Math.ceil(e.data.height)) + "px";
    }
  });
