//! The chunk boundary. The labs (`src/app/labs/`), the training lab
//! (`src/app/train_lab/`) and the tokens lab (`src/app/tokens_lab/`) are cut off the page's WebAssembly module into
//! chunks of their own, fetched when first needed (docs/architecture.md,
//! "One module and its chunks"). What may cross:
//!
//! - The page reaches the code behind the boundary only through the split
//!   points here ([`split_point!`]): `labs_bridge.rs` mounts the labs and
//!   hands them each change, `train_bridge.rs` mounts the training lab,
//!   `tokens_bridge.rs` the tokens lab, each into a `section.rs`.
//!   Nothing else of the page names `labs`, `train_lab` or `tokens_lab`: a
//!   direct call would pull their code into the first screen.
//! - Code behind the boundary may use anything of the page (Yew, the
//!   engine, the words), which the chunks import from the main module.
//! - Data crosses as plain values and `Rc`s (a scenario, its trace, the
//!   language), and back as callbacks the page gave (an edit, "open in the
//!   workbench").

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

/// Shows a mounted lab in a language; its code is in the lab's chunk,
/// called through the function table.
pub(crate) type SetLang = std::rc::Rc<dyn Fn(crate::app::i18n::Lang)>;

/// A chunk that could not be fetched or instantiated (the network, a
/// host without the CORS header: docs/embedding.md).
pub(crate) struct ChunkFailed;

#[cfg(feature = "split")]
impl From<wasm_split_helpers::SplitLoaderError> for ChunkFailed {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        ChunkFailed
    }
}

mod labs_bridge;
mod section;
mod tokens_bridge;
mod train_bridge;

pub(super) use labs_bridge::{lab_view, use_labs, Labs, Mount};
pub(super) use section::{ChunkSection, Chunked};
