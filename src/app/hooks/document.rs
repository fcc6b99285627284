//! Hooks on the document as a whole: its language, the height an embedded
//! page tells its host, and work left until after the first paint.

use crate::app::i18n::{Lang, PageText};
use crate::app::web;
use crate::lesson::names::Convention;
use yew::prelude::*;

/// `<html lang>`, the title and `?lang=` follow `lang` (remembered for the
/// next visit, except on a `guest` page). The first render sets them
/// before it is laid out: set later, the new `lang` on the root would
/// restyle the whole page a second time.
#[hook]
pub fn use_page_language(lang: Lang, guest: bool) {
    use_state(|| web::apply_lang(lang, PageText::Title.t(lang)));
    use_effect_with((lang, guest), |(lang, guest)| {
        if !guest {
            web::remember_lang(*lang);
        }
        web::apply_lang(*lang, PageText::Title.t(*lang));
    });
}

/// `?convention=` follows the convention once it is not the default (or
/// once the address has named one).
#[hook]
pub fn use_convention_in_address(convention: Convention) {
    use_effect_with(convention, |c| {
        if *c == Convention::Col || web::query("convention").is_some() {
            web::set_query("convention", c.code());
        }
    });
}

/// In an embedded page (`embed`), tells the host the content's height
/// whenever it changes (docs/embedding.md).
#[hook]
pub fn use_height_for_host(embed: bool) {
    use_effect_with(embed, |embed| {
        let observer = embed.then(web::post_height_on_resize).flatten();
        move || drop(observer)
    });
}

/// `false` until the first frame of the page has been painted, then
/// `true` (at once when `now`).
#[hook]
pub fn use_after_first_paint(now: bool) -> bool {
    let later = use_state(|| now);
    {
        let later = later.clone();
        use_effect_with((), move |_| {
            let frame = (!*later).then(|| web::after_paint(move || later.set(true)));
            move || drop(frame)
        });
    }
    *later
}
