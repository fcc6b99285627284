//! The page's side of the labs ([`labs::root`](crate::app::labs::root)): the
//! seven labs are a chunk of their own, split off the page's WebAssembly
//! module (docs/architecture.md, "One module and its chunks"), so the
//! first screen neither downloads nor compiles them. Once the page has
//! rendered its `<section class="labs">` (after its first paint; at once
//! for an embedded lab), [`use_labs`] calls the split point
//! [`mount_labs`], which loads the chunk and mounts the labs into the
//! section, then hands them the scenario and its trace (by pointer),
//! language and layout whenever these change, in a task after the change
//! is painted. A mask edit comes back as an edit and is dispatched like any
//! (undo, saving and share links stay here).

use super::ChunkFailed;
use crate::app::i18n::Lang;
use crate::app::web::View;
use crate::app::Shared;
use crate::attention::{Scenario, Trace};
use crate::lesson::edit::Edit;
use crate::lesson::names::Convention;
use std::rc::Rc;
use yew::prelude::*;

/// Hands the mounted labs the page's scenario, its trace, language and
/// layout ([`labs::root::update`](crate::app::labs::root::update)); its code is in
/// the labs' chunk, called through the function table.
type Update = Rc<dyn Fn(Rc<Scenario>, Rc<Trace>, Lang, Convention)>;

split_point! {
    labs,
    /// Mounts the labs ([`labs::root::mount`](crate::app::labs::root::mount))
    /// once the `labs` chunk is loaded, and returns how to update them: the
    /// split point between the page and the labs' code.
    fn mount_labs(
        host: web_sys::Element,
        view: Option<View>,
        on_edit: Option<Callback<Edit>>,
    ) -> Result<Update, ChunkFailed> {
        crate::app::labs::root::mount(host, view, on_edit);
        Ok(Rc::new(crate::app::labs::root::update))
    }
}

/// The lab an embedded figure shows alone.
pub fn lab_view(v: View) -> Option<View> {
    v.is_lab().then_some(v)
}

/// Where the labs' chunk is.
#[derive(Clone)]
enum Module {
    Loading,
    Ready(Update),
    Failed,
}

/// What the labs' section shows of its chunk ([`use_labs`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Labs {
    /// Not asked for yet, or on its way (`data-labs="loading"` once the
    /// section is rendered).
    Loading,
    Ready,
    /// It could not load: the section says so and offers to try again.
    Failed,
}

impl Labs {
    /// The section's `data-labs`.
    pub fn attr(self) -> Option<&'static str> {
        match self {
            Labs::Loading => Some("loading"),
            Labs::Ready => None,
            Labs::Failed => Some("failed"),
        }
    }
}

/// How the labs are mounted, fixed for the visit.
pub struct Mount {
    /// The section, rendered once `on`.
    pub host: NodeRef,
    pub on: bool,
    /// The one embedded lab; `None` for every lab.
    pub view: Option<View>,
    /// `None` on a locked page.
    pub on_edit: Option<Callback<Edit>>,
}

/// Loads the labs' chunk and mounts the labs into the section once it is
/// rendered, and keeps them showing `scenario` (whose first layer's trace
/// is `trace`) in `lang` and `convention`. Returns where the chunk is, and
/// how to ask for it again after it has failed to load (a dropped
/// connection need not cost the reader the labs until they reload the
/// page).
#[hook]
pub fn use_labs(
    mount: Mount,
    scenario: Rc<Scenario>,
    trace: Rc<Trace>,
    lang: Lang,
    convention: Convention,
) -> (Labs, Callback<MouseEvent>) {
    let Mount {
        host,
        on,
        view,
        on_edit,
    } = mount;
    let module = use_state(|| Module::Loading);
    // Each try is one more; the effect below runs after the render that
    // took the failure's message out of the section, so the labs mount
    // into a section that holds nothing of the page's (mounting clears it).
    let tries = use_state(|| 0_u32);
    let retry = {
        let (module, tries) = (module.clone(), tries.clone());
        Callback::from(move |_: MouseEvent| {
            if matches!(*module, Module::Failed) {
                module.set(Module::Loading);
                tries.set(*tries + 1);
            }
        })
    };
    {
        let module = module.clone();
        use_effect_with((on, *tries), move |&(on, _)| {
            let Some(el) = host.cast::<web_sys::Element>().filter(|_| on) else {
                return;
            };
            // The labs' words are asked for at once, so they come while
            // the chunk does.
            let words = crate::app::i18n::load_words(crate::app::i18n::ChunkWords::Labs, lang);
            wasm_bindgen_futures::spawn_local(async move {
                if !words.await {
                    module.set(Module::Failed);
                    return;
                }
                match mount_labs(el, view, on_edit).await {
                    Ok(update) => module.set(Module::Ready(update)),
                    Err(ChunkFailed) => module.set(Module::Failed),
                }
            });
        });
    }
    // Handing over in the task after the change is painted (encoding a
    // large scenario and the labs' own render must not delay the edit's
    // frame); a newer change replaces one still waiting.
    let waiting = use_mut_ref(|| None::<gloo::render::AnimationFrame>);
    let ready = match &*module {
        Module::Ready(update) => Some(update.clone()),
        _ => None,
    };
    let labs = match *module {
        Module::Loading => Labs::Loading,
        Module::Ready(_) => Labs::Ready,
        Module::Failed => Labs::Failed,
    };
    use_effect_with(
        (
            ready.is_some(),
            Shared(scenario),
            Shared(trace),
            lang,
            convention,
        ),
        move |(_, scenario, trace, lang, convention)| {
            let Some(update) = ready else {
                return;
            };
            let (s, t, lang, convention) =
                (scenario.0.clone(), trace.0.clone(), *lang, *convention);
            *waiting.borrow_mut() = Some(crate::app::web::after_paint(move || {
                update(s, t, lang, convention);
            }));
        },
    );
    (labs, retry)
}
