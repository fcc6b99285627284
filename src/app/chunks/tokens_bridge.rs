//! The page's side of the tokens lab (rendered by
//! [`tokens_lab`](crate::app::tokens_lab)): its code is a chunk of its own,
//! fetched by the split point [`mount_tokens`] only when the reader opens
//! the lab, or at once for `?view=tokens`, so neither the first screen nor
//! the other labs' chunk carries it. Its section is a
//! [`ChunkSection`](super::section::ChunkSection).

use super::{ChunkFailed, SetLang};
use crate::app::i18n::Lang;
use std::rc::Rc;

split_point! {
    tokens,
    /// Mounts the tokens lab
    /// ([`tokens_lab::mount`](crate::app::tokens_lab::mount)) once the
    /// `tokens` chunk is loaded, and returns how to change its language.
    fn mount_tokens(host: web_sys::Element, lab: web_sys::Element, lang: Lang) -> Result<SetLang, ChunkFailed> {
        crate::app::tokens_lab::mount(host, lab, lang);
        Ok(Rc::new(crate::app::tokens_lab::set_lang))
    }
}

/// Loads the chunk and mounts the lab ([`mount_tokens`]).
pub(super) async fn mount(
    host: web_sys::Element,
    lab: web_sys::Element,
    lang: Lang,
) -> Result<SetLang, ChunkFailed> {
    mount_tokens(host, lab, lang).await
}
