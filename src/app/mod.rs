//! The Yew page. It renders a [`Trace`](crate::attention::Trace) and
//! dispatches [`state::Action`]s; it computes nothing itself.

/// A split point (docs/architecture.md, "One module and its chunks"): an
/// `async fn` whose first call, in the release build (feature `split`),
/// fetches the chunk `$chunk` that holds everything only split points of
/// that name reach; a chunk that does not load gives `Err(ChunkFailed)`.
/// Without the feature (tests, clippy, native builds) it is a plain call.
macro_rules! split_point {
    ($chunk:ident, $(#[$m:meta])* fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        $(#[$m])*
        #[cfg(feature = "split")]
        #[wasm_split_helpers::wasm_split($chunk, fallible)]
        fn $name($($arg: $ty),*) -> $ret $body

        $(#[$m])*
        #[cfg(not(feature = "split"))]
        async fn $name($($arg: $ty),*) -> $ret $body
    };
}

/// A chunk that could not be fetched or instantiated (the network, a
/// host without the CORS header: docs/embedding.md).
pub(crate) struct ChunkFailed;

#[cfg(feature = "split")]
impl From<wasm_split_helpers::SplitLoaderError> for ChunkFailed {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        ChunkFailed
    }
}

pub mod effects;
pub mod failure;
pub mod i18n;
pub mod matrix;
pub mod state;
pub mod url;

pub mod canvas;
mod collapse;
mod controls;
mod derivation;
mod head_view;
mod heads;
mod heatmap;
mod induction;
mod labs;
mod labs_bridge;
mod labs_root;
mod layers;
mod page;
pub mod persist;
pub mod refusal;
mod rich;
mod stage;
mod toolbar;
mod train_bridge;
mod train_lab;
pub mod views;

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
