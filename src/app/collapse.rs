//! A section that may start collapsed. While collapsed its content is not on
//! the page at all (docs/format.md §3: collapsed intermediates are absent until
//! opened), so a 64-token scenario stays light.

use super::i18n::{Lang, PageText};
use std::rc::Rc;
use yew::prelude::*;

/// What a section shows, built only while it is open: a closed section of
/// a 64-token head would otherwise copy its matrices and build their
/// markup on every render, only for them to be left out. Compared by
/// pointer (each render of the owner hands a new one).
#[derive(Clone)]
pub struct Content(Rc<dyn Fn() -> Html>);

impl Content {
    pub fn new(build: impl Fn() -> Html + 'static) -> Content {
        Content(Rc::new(build))
    }
}

impl PartialEq for Content {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.0, &o.0)
    }
}

#[derive(Properties, PartialEq)]
pub struct CollapseProps {
    pub title: AttrValue,
    /// Start closed (large scenarios).
    pub collapsed: bool,
    pub lang: Lang,
    /// The content as markup built by the owner …
    #[prop_or_default]
    pub children: Html,
    /// … or built here, only when open.
    #[prop_or_default]
    pub content: Option<Content>,
}

#[component]
pub fn Collapse(props: &CollapseProps) -> Html {
    let open = use_state_eq(|| !props.collapsed);
    // A scenario that grows large closes what it had open (a 512-wide
    // scenario opened from note 004 would otherwise keep every section of
    // head 1 and the split view on the page).
    {
        let open = open.clone();
        use_effect_with(props.collapsed, move |c| {
            if *c {
                open.set(false);
            }
        });
    }
    let toggle = {
        let open = open.clone();
        Callback::from(move |_| open.set(!*open))
    };
    html! {
        <section class="step">
            <h3>
                { props.title.clone() }
                if props.collapsed || !*open {
                    <button class="toggle" aria-expanded={(*open).to_string()} onclick={toggle}>
                        { if *open { PageText::HideMatrix.t(props.lang) } else { PageText::ShowMatrix.t(props.lang) } }
                    </button>
                }
            </h3>
            if *open {
                <div class="row-of-matrices">
                    { props.content.as_ref().map_or_else(|| props.children.clone(), |c| (c.0)()) }
                </div>
            }
        </section>
    }
}
