//! The Yew page. It renders a [`Trace`](crate::attention::Trace) and
//! dispatches [`state::Action`]s; it computes nothing itself.

pub mod failure;
pub mod i18n;
pub mod matrix;
pub mod state;
pub mod url;
pub mod web;

mod chunks;
mod collapse;
mod heads;
mod heatmap;
/// The heatmap's drawing step, for the browser tests (`tests/web.rs`).
pub use heatmap::canvas;
mod hooks;
mod labs;
mod page;
pub mod persist;
pub mod refusal;
mod rich;
mod roots;
mod stage;
pub(crate) mod start;
mod tokens_lab;
mod train_lab;
pub mod views;
mod workbench;

pub use page::App;

/// An `Rc` prop compared by pointer: a component re-renders when the page
/// hands it a new trace or scenario, never after comparing two equal ones
/// number by number (`Rc`'s own `==` compares the values: a trace of 64
/// tokens and 8 heads is about 120,000 numbers).
pub struct Shared<T>(pub std::rc::Rc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, o: &Self) -> bool {
        std::rc::Rc::ptr_eq(&self.0, &o.0)
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = std::rc::Rc<T>;
    fn deref(&self) -> &std::rc::Rc<T> {
        &self.0
    }
}

impl<T> yew::html::IntoPropValue<Shared<T>> for std::rc::Rc<T> {
    fn into_prop_value(self) -> Shared<T> {
        Shared(self)
    }
}

impl<T> yew::html::IntoPropValue<std::rc::Rc<T>> for Shared<T> {
    fn into_prop_value(self) -> std::rc::Rc<T> {
        self.0
    }
}
