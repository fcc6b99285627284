// What the three drivers share: waiting by polling the page (the same in
// every engine), and the page-side helpers they call through evaluate.

/** Polls `probe()` until it returns a truthy value (which is returned), or
 * throws after `timeout` ms with `what` in the message. */
export async function poll(probe, what, timeout = 15000) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (e) {
      // A browser that is gone will not come back: say so at once.
      if (/invalid session id|unknown error: $/i.test(e.message)) throw e;
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}${last ? ` (${last.message})` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** waitFor(selector) or waitFor(fn, arg): `page.evaluate` is the driver's. */
export function waitFor(page, target, arg, { timeout = 15000 } = {}) {
  if (typeof target === 'string') {
    return poll(() => page.evaluate((s) => Boolean(document.querySelector(s)), target), target, timeout);
  }
  return poll(() => page.evaluate(target, arg), target.toString().slice(0, 120), timeout);
}

/** Page-side: scrolls `sel` to the middle of the viewport and waits two
 * frames. The page's sections off screen are skipped by content-visibility:
 * auto: WebKit does not scroll to an element inside one (and its WebDriver
 * click then calls the element "not interactable"), and elsewhere the
 * section's real height, laid out on arrival, moves the element after the
 * driver has aimed. So the outermost such section is scrolled to first. */
export function reveal(sel) {
  const el = document.querySelector(sel);
  const skipped = [];
  for (let a = el.parentElement; a; a = a.parentElement) {
    if (getComputedStyle(a).contentVisibility === 'auto') skipped.unshift(a);
  }
  if (skipped.length) skipped[0].scrollIntoView();
  el.scrollIntoView({ block: 'center' });
  return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
}

/** The centre of the first element matching `selector`, in viewport pixels,
 * scrolled into view first. */
export function centreOf(page, selector) {
  return page.evaluate((s) => {
    const el = document.querySelector(s);
    if (!el) throw new Error(`no element ${s}`);
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const r = el.getBoundingClientRect();
    return { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2) };
  }, selector);
}

/** A drag as pointer events of type `pointerType` dispatched from the page
 * itself: down on the element, moves and up on whatever is under the finger
 * (WebKitGTK's WebDriver has no touch input; README, "Browsers"). */
/** A mouse drag by (dx, dy) from the centre of `selector`, in five moves,
 * through a Playwright or Puppeteer page's `mouse` (the same API). */
export async function mouseDrag(page, me, selector, dx, dy) {
  const { x, y } = await centreOf(me, selector);
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 5 });
  await page.mouse.up();
}

export function syntheticDrag(page, selector, dx, dy, pointerType) {
  return page.evaluate(([s, dx, dy, type]) => {
    const el = document.querySelector(s);
    el.scrollIntoView({ block: 'center' });
    const r = el.getBoundingClientRect();
    const x0 = r.left + r.width / 2;
    const y0 = r.top + r.height / 2;
    const base = { pointerId: 7, pointerType: type, isPrimary: true, bubbles: true, cancelable: true, composed: true };
    el.dispatchEvent(new PointerEvent('pointerdown', { ...base, clientX: x0, clientY: y0, buttons: 1 }));
    let target = el;
    for (let i = 1; i <= 5; i++) {
      const x = x0 + (dx * i) / 5;
      const y = y0 + (dy * i) / 5;
      target = document.elementFromPoint(x, y) ?? el;
      target.dispatchEvent(new PointerEvent('pointermove', { ...base, clientX: x, clientY: y, buttons: 1 }));
    }
    target.dispatchEvent(new PointerEvent('pointerup', { ...base, clientX: x0 + dx, clientY: y0 + dy }));
  }, [selector, dx, dy, pointerType]);
}
