//! The root of the labs module (`src/bin/labs.rs`, a second WebAssembly
//! module loaded by the page after its first paint; see
//! [`labs_bridge`](super::labs_bridge) for the page's side). It renders
//! into the page's `<section class="labs">` the same DOM the page rendered
//! there when the labs were part of it: the section's title on the full
//! page, then every lab; with `?embed=1&view=NAME` only that lab.
//!
//! The page hands over its scenario in two parts ([`Scenario::to_parts`]:
//! a short JSON text and its numbers in one list, read back bit for bit and
//! validated like any scenario), with its language and layout; this module
//! computes its own trace with the same engine (the same bits). A mask edit made in
//! the masks lab goes back to the page as the mask alone in the scenario
//! format, so undo, saving and share links stay the page's.

use super::effects::View;
use super::i18n::{Lang, C};
use super::labs::{LabCtx, LABS};
use crate::attention::{compute, Scenario, Trace};
use crate::lesson::edit::Edit;
use crate::lesson::names::Convention;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The lab a `view=` name shows alone, if it names one.
pub fn lab_view(name: &str) -> Option<View> {
    View::parse(name).filter(|v| v.is_lab())
}

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

impl LabsProps {
    /// Nothing to show (and nothing shown).
    fn default_empty() -> LabsProps {
        LabsProps {
            shown: None,
            view: None,
            on_edit: None,
        }
    }
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
                <h2 class="labs-title">{ C::LabsHeading.t(lang) }</h2>
            }
            { for LABS.iter().filter(|(v, _)| one(*v)).map(|(_, mount)| mount(&ctx)) }
        </>
    }
}

/// The mounted labs and the scenario parts they show (unchanged parts keep
/// their scenario and trace, so a change of language alone recomputes
/// nothing and every lab keeps its memo).
struct Mounted {
    app: yew::AppHandle<Labs>,
    props: LabsProps,
    header: String,
    numbers: Vec<f64>,
}

thread_local! {
    static MOUNTED: RefCell<Option<Mounted>> = const { RefCell::new(None) };
}

/// Renders the labs into `host` (once; a second call is ignored). `view`
/// is the `view=` name of an embedded lab, `None` for every lab; `on_edit`
/// receives the masks lab's edits as mask JSON, `None` on a locked page.
pub fn mount(host: web_sys::Element, view: Option<String>, on_edit: Option<Callback<String>>) {
    MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        if m.is_some() {
            return;
        }
        let props = LabsProps {
            shown: None,
            view: view.as_deref().and_then(lab_view),
            on_edit: on_edit.map(|send| {
                Callback::from(move |e: Edit| {
                    if let Edit::Mask(mask) = e {
                        send.emit(mask.to_json());
                    }
                })
            }),
        };
        // Two Yew apps share this document (the page's, mounted on the body,
        // and this one inside it), each from its own WebAssembly module and
        // so each numbering its roots from 1. Yew brands the elements of a
        // root with its number and routes an event to the root whose number
        // the nearest branded element carries: with both numbered 1, the
        // page took every event inside the labs for its own and ran
        // whichever of its listeners shared the id (a click in the mask grid
        // ran the toolbar's Undo). A first, discarded root here makes the
        // labs' root number 2, so each app handles only its own events.
        if let Ok(spare) = gloo::utils::document().create_element("div") {
            yew::Renderer::<Labs>::with_root_and_props(spare, LabsProps::default_empty())
                .render()
                .destroy();
        }
        let app = yew::Renderer::<Labs>::with_root_and_props(host, props.clone()).render();
        *m = Some(Mounted {
            app,
            props,
            header: String::new(),
            numbers: Vec::new(),
        });
    });
}

/// Shows the scenario written by [`Scenario::to_parts`] in `lang`
/// (`zh`/`en`) and `convention` (`row`/`col`). Parts that do not read as a
/// scenario that computes leave the labs as they were (the page only sends
/// scenarios it shows, so this does not happen).
pub fn update(header: &str, numbers: &[f64], lang: &str, convention: &str) {
    MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        let Some(m) = m.as_mut() else {
            return;
        };
        let lang = Lang::parse(lang).unwrap_or(Lang::Zh);
        let convention = Convention::parse(convention).unwrap_or_default();
        let same = m.header == header
            && m.numbers.len() == numbers.len()
            && m.numbers
                .iter()
                .zip(numbers)
                .all(|(a, b)| a.to_bits() == b.to_bits());
        let (scenario, trace) = match &m.props.shown {
            Some(shown) if same => (shown.scenario.clone(), shown.trace.clone()),
            _ => {
                let Some((s, t)) = Scenario::from_parts(header, numbers)
                    .and_then(|s| compute(&s).ok().map(|t| (s, t)))
                else {
                    return;
                };
                m.header = header.to_string();
                m.numbers = numbers.to_vec();
                (Rc::new(s), Rc::new(t))
            }
        };
        let shown = Shown {
            scenario,
            trace,
            convention,
            lang,
        };
        if m.props.shown.as_ref() == Some(&shown) {
            return;
        }
        m.props.shown = Some(shown);
        m.app.update(m.props.clone());
    });
}
