//! An animation clock on gloo's `requestAnimationFrame`: while running, a
//! tick once per frame, which says whether to go on.

use std::cell::RefCell;
use std::rc::{Rc, Weak};
use yew::prelude::*;

/// A loop of animation frames. Each frame calls the tick; the loop asks
/// for the next frame while the tick returns `true`. Never more than one
/// frame is asked for at a time, however often [`FrameLoop::start`] is
/// called. Dropping the loop cancels the frame it waits for.
pub struct FrameLoop(Rc<Inner>);

struct Inner {
    frame: RefCell<Option<gloo::render::AnimationFrame>>,
    tick: Box<dyn Fn() -> bool>,
}

impl FrameLoop {
    pub fn new(tick: impl Fn() -> bool + 'static) -> FrameLoop {
        FrameLoop(Rc::new(Inner {
            frame: RefCell::new(None),
            tick: Box::new(tick),
        }))
    }

    /// Asks for the next frame, unless one is asked for already.
    pub fn start(&self) {
        request(&self.0);
    }

    /// Cancels the frame asked for, if any.
    pub fn stop(&self) {
        self.0.frame.borrow_mut().take();
    }
}

fn request(inner: &Rc<Inner>) {
    if inner.frame.borrow().is_some() {
        return;
    }
    let weak: Weak<Inner> = Rc::downgrade(inner);
    let frame = gloo::render::request_animation_frame(move |_| {
        let Some(inner) = weak.upgrade() else { return };
        // This frame has come: the tick may ask for the next one itself.
        inner.frame.borrow_mut().take();
        if (inner.tick)() {
            request(&inner);
        }
    });
    *inner.frame.borrow_mut() = Some(frame);
}

/// Runs `make_tick()`'s tick once per animation frame while `running` (and
/// while the tick returns `true`). The tick is made once, on the first
/// render: what it reads must be shared (a dispatcher, an `Rc`). The loop
/// stops when `running` turns false and when the component goes.
#[hook]
pub fn use_animation_clock<M, F>(running: bool, make_tick: M)
where
    M: FnOnce() -> F,
    F: Fn() -> bool + 'static,
{
    let clock = use_memo((), |_| FrameLoop::new(make_tick()));
    use_effect_with(running, move |running| {
        if *running {
            clock.start();
        } else {
            clock.stop();
        }
    });
}
