// Benchmark (not a test): the training lab in Chromium (docs/performance.md,
// "The training lab").
// - `raw`: the training lab's own timing of each task's default model
//   (`window.attentionLabTrainBench`, src/app/train_lab/mount.rs): ms per Adam step, so the steps per second
//   this browser could do with nothing else to do, one evaluation on the
//   evaluation set and one trace of the evaluation sample;
// - `lab`: the lab itself at each speed on `previous` (steps per second
//   measured by the lab, against its target);
// - `induction`: the lab trains `induction` (default size, seed 5) at 1.5×
//   from the UI until its accuracy reaches 0.9: wall time and steps, the
//   slices the lab timed (its own work in one animation frame:
//   `data-slices`, how many, over 16 ms and over 50 ms, and
//   `data-longest-slice-ms`) and every main-thread task over 50 ms that the
//   browser reported (PerformanceObserver 'longtask');
// - `digits`: the same for `digits` (the digits fetched when it is chosen)
//   until its held-out accuracy reaches 0.85.
// Usage: BASE_URL=http://127.0.0.1:PORT/ node scripts/bench-train.mjs
import { launch, openPage } from '../tests/e2e/helpers.mjs';

const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080/';
const LAB = '[data-lab="train"]';

const browser = await launch();
const { context, page, problems } = await openPage(browser);
await page.addInitScript(() => {
  window.__long = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
});
await page.goto(`${BASE_URL}?lang=en&view=train`);
await page.waitForSelector(`${LAB}[data-state] [data-control="train"]`, { timeout: 30000 });

// raw: the training's own timing (the training lab's bench, on a model of
// its own: src/app/train_lab/mount.rs, expose_bench).
const raw = await page.evaluate(async () => {
  const bench = window.attentionLabTrainBench;
  const out = {};
  for (const [task, steps] of [['previous', 60], ['reverse', 60], ['majority', 60], ['induction', 20]]) {
    await bench(task, 2); // warm up
    const [train, evaluate, trace] = await bench(task, steps);
    out[task] = { msPerStep: +(train / steps).toFixed(2), stepsPerSecond: +(1000 * steps / train).toFixed(0), evaluateMs: +evaluate.toFixed(2), traceMs: +trace.toFixed(2) };
  }
  return out;
});
console.log('raw (the chunk\'s own timing, default size, seed 5):');
for (const [task, r] of Object.entries(raw)) console.log(`  ${task}: ${r.msPerStep} ms/step (${r.stepsPerSecond} steps/s), evaluation ${r.evaluateMs} ms, trace ${r.traceMs} ms`);

const attr = (name) => page.getAttribute(LAB, name);
const waitFor = (fn, arg, timeout = 120000) => page.waitForFunction(fn, arg, { timeout, polling: 100 });

// lab: the measured rate at each speed (reverse without positions keeps training).
await page.selectOption(`${LAB} [data-control="task"]`, 'reverse');
await page.selectOption(`${LAB} [data-control="positional"]`, 'none');
await page.click(`${LAB} .predict .skip`);
await page.click(`${LAB} [data-control="train"]`);
console.log('lab (reverse without positions, d_model 16):');
for (const speed of ['0.5', '1', '1.5']) {
  await page.click(`${LAB} [data-speed-button="${speed}"]`);
  await waitFor(([sel, s]) => document.querySelector(sel).dataset.speed === s && document.querySelector(sel).dataset.stepsPerSecond !== '', [LAB, speed]);
  await page.waitForTimeout(1500);
  console.log(`  ${speed}×: target ${20 * Number(speed)} steps/s, measured ${await attr('data-steps-per-second')} steps/s`);
}
await page.click(`${LAB} [data-control="train"]`);

// A task at 1.5× from the UI until its accuracy reaches `goal`: wall time
// and steps, the lab's slices and the browser's long tasks.
async function untilAccuracy(task, goal, ready) {
  await page.selectOption(`${LAB} [data-control="task"]`, task);
  await waitFor(ready, LAB);
  await page.click(`${LAB} [data-speed-button="1.5"]`);
  await page.evaluate(() => { window.__long = []; });
  const t0 = Date.now();
  await page.click(`${LAB} [data-control="train"]`);
  await waitFor(([sel, goal]) => Number(document.querySelector(sel).dataset.accuracy) >= goal, [LAB, goal]);
  const seconds = (Date.now() - t0) / 1000;
  const steps = await attr('data-train-step');
  const rate = await attr('data-steps-per-second');
  const longest = await attr('data-longest-slice-ms');
  const [slices, over16, over50] = (await attr('data-slices')).split(' ');
  await page.click(`${LAB} [data-control="train"]`);
  const long = await page.evaluate(() => window.__long);
  console.log(`${task} at 1.5×: accuracy ≥ ${goal} after ${seconds.toFixed(1)} s and ${steps} steps (measured ${rate} steps/s); slices ${slices}, over 16 ms ${over16}, over 50 ms ${over50}, longest ${longest} ms; tasks over 50 ms: ${long.length}${long.length ? ` (longest ${Math.max(...long).toFixed(0)} ms)` : ''}`);
}

const load = (await import('node:os')).loadavg()[0].toFixed(1);
// induction (default size, seed 5).
await untilAccuracy('induction', 0.9,
  (sel) => document.querySelector(sel).dataset.state === 'idle' && document.querySelector(sel).dataset.sample.split(' ').length === 14);
// digits (default size, seed 5): accuracy on the held-out images; the time
// includes fetching the digits.
await untilAccuracy('digits', 0.85,
  (sel) => document.querySelector(sel).dataset.state === 'idle' && document.querySelector(sel).dataset.sample.startsWith('[CLS]'));
console.log(`(machine load average ${load} on ${(await import('node:os')).cpus().length} cores)`);
if (problems.length) console.log('problems:', problems);
await context.close();
await browser.close();
