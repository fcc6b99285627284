//! A Yew root that a chunk mounts once inside the page's (the labs, the
//! training lab, the tokens lab) and later hands new props. Yew numbers the
//! roots of one module in turn and routes each event to the root whose
//! number the nearest branded element carries, so each root handles only
//! its own events (two roots with one number would each run the other's
//! listeners).

use std::cell::RefCell;
use std::thread::LocalKey;
use yew::{AppHandle, BaseComponent};

/// A mounted root and the props it shows.
pub struct Root<C: BaseComponent> {
    app: AppHandle<C>,
    props: C::Properties,
}

/// Where a chunk keeps its one root.
pub type Slot<C> = LocalKey<RefCell<Option<Root<C>>>>;

impl<C: BaseComponent> Root<C>
where
    C::Properties: Clone,
{
    /// Renders `C` into `host` with `props`, unless `slot` already holds a
    /// root (a second call is ignored); true when it mounted.
    pub fn mount_once(
        slot: &'static Slot<C>,
        host: web_sys::Element,
        props: C::Properties,
    ) -> bool {
        slot.with(|m| {
            let mut m = m.borrow_mut();
            if m.is_some() {
                return false;
            }
            let app = yew::Renderer::<C>::with_root_and_props(host, props.clone()).render();
            *m = Some(Root { app, props });
            true
        })
    }

    /// Lets `change` edit the props and renders again when it says they
    /// changed; nothing before the root is mounted.
    pub fn update(slot: &'static Slot<C>, change: impl FnOnce(&mut C::Properties) -> bool) {
        slot.with(|m| {
            if let Some(root) = m.borrow_mut().as_mut() {
                if change(&mut root.props) {
                    root.app.update(root.props.clone());
                }
            }
        });
    }
}
