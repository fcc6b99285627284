//! The root of the seven labs, a Yew root of its own inside the page's
//! `<section class="labs">`, reached only through the split point
//! [`labs_bridge`](crate::app::chunks) calls once the page has painted:
//! its code is the `labs` chunk of the page's WebAssembly module
//! (docs/architecture.md, "One module and its chunks"), which the first
//! screen neither downloads nor compiles. It renders the section's title
//! on the full page, then every lab; with `?embed=1&view=NAME` only that
//! lab.
//!
//! The page hands over its scenario and the trace it computed for it (by
//! pointer: one module, one heap), with its language and layout. A mask
//! edit made in the masks lab goes back to the page as an edit, so undo,
//! saving and share links stay the page's.

use crate::app::i18n::{CommonText, Lang};
use crate::app::labs::{LabCtx, LABS};
use crate::app::roots::Root;
use crate::app::web::View;
use crate::attention::{Scenario, Trace};
use crate::lesson::edit::Edit;
use crate::lesson::names::Convention;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// What the page last handed over.
#[derive(Clone)]
pub struct Shown {
    pub scenario: Rc<Scenario>,
    pub trace: Rc<Trace>,
    pub convention: Convention,
    pub lang: Lang,
}

/// The same scenario and trace (by address: [`update`] keeps them while
/// the page's text is unchanged), language and layout.
impl PartialEq for Shown {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.scenario, &o.scenario)
            && Rc::ptr_eq(&self.trace, &o.trace)
            && self.convention == o.convention
            && self.lang == o.lang
    }
}

#[derive(Properties, PartialEq, Clone)]
pub struct LabsProps {
    /// `None` until the page's first `update`.
    pub shown: Option<Shown>,
    /// The one lab of an embedded figure; `None` on the full page.
    pub view: Option<View>,
    /// `None` on a locked page.
    pub on_edit: Option<Callback<Edit>>,
}

/// The labs section's content.
#[component]
pub fn Labs(p: &LabsProps) -> Html {
    let Some(Shown {
        scenario: s,
        trace: t,
        convention: conv,
        lang,
    }) = p.shown.clone()
    else {
        return html! {};
    };
    let all = p.view.is_none();
    let ctx = LabCtx {
        scenario: s,
        trace: t,
        convention: conv,
        lang,
        on_edit: p.on_edit.clone(),
    };
    let one = |v: View| all || p.view == Some(v);
    html! {
        <>
            if all {
                <h2 class="labs-title">{ CommonText::LabsHeading.t(lang) }</h2>
            }
            { for LABS.iter().filter(|(v, _)| one(*v)).map(|(_, mount)| mount(&ctx)) }
        </>
    }
}

thread_local! {
    static ROOT: RefCell<Option<Root<Labs>>> = const { RefCell::new(None) };
}

/// Renders the labs into `host` (once; a second call is ignored). `view`
/// is the lab an embedded figure shows alone, `None` for every lab; `on_edit`
/// receives the masks lab's edits, `None` on a locked page.
pub fn mount(host: web_sys::Element, view: Option<View>, on_edit: Option<Callback<Edit>>) {
    let props = LabsProps {
        shown: None,
        view,
        on_edit,
    };
    Root::mount_once(&ROOT, host, props);
}

/// Shows the page's scenario and its (first layer's) trace in `lang` and
/// `convention`; the same scenario, trace, language and layout again
/// render nothing.
pub fn update(scenario: Rc<Scenario>, trace: Rc<Trace>, lang: Lang, convention: Convention) {
    let shown = Shown {
        scenario,
        trace,
        convention,
        lang,
    };
    Root::update(&ROOT, |p| {
        if p.shown.as_ref() == Some(&shown) {
            return false;
        }
        p.shown = Some(shown);
        true
    });
}
