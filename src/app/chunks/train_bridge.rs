//! The page's side of the training lab (rendered by
//! [`train_lab`](crate::app::train_lab)): its code is a chunk of its own, split
//! off the page's WebAssembly module (docs/architecture.md, "One module and
//! its chunks") and fetched by the split point [`mount_train`] only when
//! the reader opens the lab ("Open the training lab"), or at once for
//! `?view=train` and `?embed=1&view=train`, so neither the first screen nor
//! the labs' chunk carries it.
//!
//! Its section is a [`ChunkSection`](super::section::ChunkSection). "Open in
//! the workbench" hands back the model as a scenario (JSON, every f64 read
//! back exactly), loaded like an imported file: undoable, the reader's
//! previous work one Undo away.

use super::{ChunkFailed, SetLang};
use crate::app::i18n::Lang;
use std::rc::Rc;
use yew::prelude::*;

split_point! {
    train,
    /// Mounts the training lab
    /// ([`train_lab::mount`](crate::app::train_lab::mount)) once the `train`
    /// chunk is loaded, and returns how to change its language: the split
    /// point between the page and the lab's code.
    fn mount_train(
        host: web_sys::Element,
        lab: web_sys::Element,
        lang: Lang,
        on_open: Option<Callback<String>>,
    ) -> Result<SetLang, ChunkFailed> {
        crate::app::train_lab::mount(host, lab, lang, on_open);
        Ok(Rc::new(crate::app::train_lab::set_lang))
    }
}

/// Loads the chunk and mounts the lab ([`mount_train`]).
pub(super) async fn mount(
    host: web_sys::Element,
    lab: web_sys::Element,
    lang: Lang,
    on_open: Option<Callback<String>>,
) -> Result<SetLang, ChunkFailed> {
    mount_train(host, lab, lang, on_open).await
}
