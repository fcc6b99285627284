// Benchmark (not a test): edit-to-paint in Chromium. Commits an edit of an X
// cell and waits for the next frame after the DOM update, at two sizes.
// Usage: BASE_URL=http://127.0.0.1:PORT/ node scripts/bench-ui.mjs
import { launch, openPage, ready, shareFragment } from '../tests/e2e/helpers.mjs';

const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080/';

function scenario(n, d, h, dk, seed) {
  let s = seed >>> 0;
  const rnd = () => { s = (s * 1664525 + 1013904223) >>> 0; return Math.round((s / 2 ** 32) * 200 - 100) / 100; };
  const m = (r, c) => Array.from({ length: r }, () => Array.from({ length: c }, rnd));
  return {
    format: 'attention-lab/1',
    x: m(n, d),
    heads: Array.from({ length: h }, () => ({ w_q: m(d, dk), w_k: m(d, dk), w_v: m(d, dk) })),
    w_o: m(h * dk, d),
  };
}

async function measure(browser, label, s, samples = 25) {
  const { context, page, problems } = await openPage(browser);
  await page.goto(BASE_URL + '?lang=en' + shareFragment(s));
  await ready(page);
  const times = await page.evaluate(async (count) => {
    const out = [];
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    for (let k = 0; k < count; k++) {
      const input = document.querySelector(`[data-matrix="x"] [data-row="${k % 4}"][data-col="0"] input`);
      await frame();
      const t0 = performance.now();
      input.value = String((k % 7) - 3 + 0.5);
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await frame();
      out.push(performance.now() - t0);
    }
    return out;
  }, samples);
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`edit-to-paint ${label}: median ${median.toFixed(1)} ms (min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)}, ${times.length} edits)`);
  if (problems.length) console.log('problems:', problems);
  await context.close();
}

const browser = await launch();
await measure(browser, 'n=8, d_model=8, 2 heads', scenario(8, 8, 2, 4, 1));
await measure(browser, 'n=64, d_model=64, 8 heads', scenario(64, 64, 8, 8, 2), 10);
await browser.close();
