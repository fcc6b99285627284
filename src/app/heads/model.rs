//! The model view: every layer's heads at once, one row of maps per layer.

use crate::app::heatmap::{head_name, Heatmap, Map};
use crate::app::i18n::{Lang, MapText, PageText};
use crate::app::state::Layers;
use crate::app::workbench::layers::layer_heading;
use yew::prelude::*;

/// The model view (BertViz's, note 000 §3.2): one row of maps per layer,
/// one map per head, on the weights' one colour scale. Hovering a cell
/// outlines its query in every map; clicking a map enlarges it. The grid
/// scrolls inside itself on a narrow screen.
pub(super) fn model_view(
    stack: &Layers,
    focus: &UseStateHandle<Option<(usize, usize)>>,
    hover: &UseStateHandle<Option<usize>>,
    (big, small): (f64, f64),
    dpr: f64,
    transpose: bool,
    lang: Lang,
) -> Html {
    let on_hover = {
        let hover = hover.clone();
        Callback::from(move |q: Option<usize>| hover.set(q))
    };
    let style = hover.map(|q| format!("--q:{q}"));
    html! {
        <div class={classes!("model-view", hover.is_some().then_some("hovering"))} style={style}
            data-model-view="" data-hover-query={hover.map(|q| q.to_string())}>
            <h3>{ PageText::ModelViewHeading.t(lang) }</h3>
            <p class="note">{ PageText::ModelViewIntro.t(lang) }</p>
            <div class="model-grid">
                { for stack.traces.iter().enumerate().map(|(l, t)| html! {
                    <div class="model-row" role="group" aria-label={layer_heading(l + 1, lang)}>
                        <span class="model-layer">{ layer_heading(l + 1, lang) }</span>
                        { for (0..t.heads.len()).map(|r| {
                            let is_focused = **focus == Some((l, r));
                            let activate = {
                                let focus = focus.clone();
                                Callback::from(move |_| focus.set(if is_focused { None } else { Some((l, r)) }))
                            };
                            let name = format!("{} · {}", layer_heading(l + 1, lang), head_name(lang, r));
                            html! {
                                <figure class={classes!("heat-fig", "model-cell", is_focused.then_some("focused"))}>
                                    <figcaption><span class="head-name">{ head_name(lang, r) }</span></figcaption>
                                    <Heatmap trace={t.clone()} map={Map::Head(r)} layer={Some(l + 1)}
                                        transpose={transpose} cell_css={if is_focused { big } else { small }} dpr={dpr}
                                        title={format!("{name} · {}", MapText::TipWeight.t(lang))}
                                        file={format!("attention-layer-{}-head-{}", l + 1, r + 1)} lang={lang}
                                        on_activate={Some(activate)} on_hover={Some(on_hover.clone())} />
                                </figure>
                            }
                        }) }
                    </div>
                }) }
            </div>
        </div>
    }
}
