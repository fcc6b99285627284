//! The cost lab's decoding: one token at a time with a KV cache, and what
//! each kind of layer costs per layer and in reach.

use crate::app::i18n::{fill, LabText, Lang};
use crate::attention::cost::{
    complexity, kv_decode, layers_to_reach, Keys, Layer, LayerKind, Variant,
};
use crate::attention::{compute, Mask, Scenario};
use crate::lesson::format::{count, rounded};
use std::rc::Rc;
use yew::prelude::*;

use super::{dims, CostLabProps, LIVE_LIMIT_MADDS};

/// Decoding one token at a time with a KV cache.
#[component]
pub(super) fn KvCache(p: &CostLabProps) -> Html {
    let lang = p.lang;
    let s = Scenario {
        mask: Mask::Causal,
        ..(*p.scenario).clone()
    };
    let too_big = dims(&s, &p.trace, s.n())
        .counts(Variant::Dense(Keys::All))
        .madds
        > LIVE_LIMIT_MADDS;
    let full = match compute(&s) {
        Ok(full) if !too_big => full,
        _ => {
            return html! { <div class="kv"><h3>{ LabText::LabKvTitle.t(lang) }</h3><p class="note">{ LabText::LabCountsOnly.t(lang) }</p></div> }
        }
    };
    let steps = kv_decode(&Layer::of(&s, &full));
    html! {
        <div class="kv">
            <h3>{ LabText::LabKvTitle.t(lang) }</h3>
            <p class="note">{ LabText::LabKvHow.t(lang) }</p>
            <table class="lab-table" data-kv="">
                <thead><tr>
                    <th scope="col">{ LabText::LabNewToken.t(lang) }</th><th scope="col">{ LabText::LabSameRow.t(lang) }</th>
                    <th scope="col">{ LabText::LabWithCache.t(lang) }</th><th scope="col">{ LabText::LabRecompute.t(lang) }</th>
                </tr></thead>
                <tbody>
                    { for steps.iter().enumerate().take(16).map(|(k, st)| {
                        let same = st.output.iter().zip(full.output.row(k).iter()).all(|(a, b)| a.to_bits() == b.to_bits());
                        html! {
                            <tr data-kv-step={k.to_string()} data-same={same.to_string()}>
                                <td>{ format!("{} {}", k + 1, full.tokens[k]) }</td>
                                <td>{ if same { LabText::AnswerYesPlain.t(lang) } else { LabText::AnswerNoPlain.t(lang) } }</td>
                                <td data-madds={st.cached.madds.to_string()}>{ count(st.cached.madds) }</td>
                                <td data-madds={st.recomputed.madds.to_string()}>{ count(st.recomputed.madds) }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub(super) struct LayerTypesProps {
    pub scenario: Rc<Scenario>,
    /// The scenario's number of positions.
    pub n: usize,
    /// The window W chosen above: the restricted layer and the reach use it.
    pub window: usize,
    pub lang: Lang,
}

/// The Transformer paper's Table 1 at the scenario's d and a chosen n, with
/// the window W of the variants above. Path lengths are whole counts of
/// layers (steps for the RNN), see [`complexity`].
#[component]
pub(super) fn LayerTypes(p: &LayerTypesProps) -> Html {
    let lang = p.lang;
    let d = p.scenario.d_model();
    let n = use_state(|| p.n.max(2));
    let on_n = {
        let n = n.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(v) = e
                .target_dyn_into::<web_sys::HtmlInputElement>()
                .and_then(|i| crate::attention::json::decimal(&i.value()))
            {
                // 2^v by repeated products: exact for the slider's whole v
                // (1 to 12). `2f64.powf(v)` becomes libm's `exp2`, whose 4 KB
                // table would come into the labs' chunk for this alone.
                n.set(2f64.powi(v as i32) as usize);
            }
        })
    };
    let (k, w) = (3usize, p.window);
    let kinds = [
        (
            LabText::LabSelfAttention,
            LayerKind::SelfAttention,
            "n²·d",
            "1",
            "1",
        ),
        (
            LabText::LabRecurrentLayer,
            LayerKind::Recurrent,
            "n·d²",
            "n",
            "n − 1",
        ),
        (
            LabText::LabConv,
            LayerKind::Convolution { k, dilated: true },
            "k·n·d²",
            "1",
            "≈ log_k n",
        ),
        (
            LabText::LabConvPlain,
            LayerKind::Convolution { k, dilated: false },
            "k·n·d²",
            "1",
            "⌈(n − 1)/⌊k/2⌋⌉",
        ),
        (
            LabText::LabRestricted,
            LayerKind::Restricted(w),
            "(2W + 1)·n·d",
            "1",
            "⌈(n − 1)/W⌉",
        ),
    ];
    let sa = complexity(LayerKind::SelfAttention, *n, d);
    let rnn = complexity(LayerKind::Recurrent, *n, d);
    let cheaper = if sa.ops < rnn.ops {
        LabText::LabAttnCheaper
    } else {
        LabText::LabRnnCheaper
    };
    let m = p.n;
    html! {
        <div class="layer-types">
            <h3>{ LabText::LabWhyAttention.t(lang) }</h3>
            <label class="field" for="lab-cost-n">
                <span>{ format!("n = {} (d = d_model = {d}, k = {k}, W = {w})", *n) }</span>
                <input id="lab-cost-n" type="range" min="1" max="12" step="1" value={(*n as f64).log2().round().to_string()} oninput={on_n} />
            </label>
            <table class="lab-table" data-layers={n.to_string()}>
                <thead><tr><th></th><th scope="col">{ LabText::LabOpsPerLayer.t(lang) }</th><th scope="col">{ LabText::LabSequential.t(lang) }</th><th scope="col">{ LabText::LabPathLength.t(lang) }</th></tr></thead>
                <tbody>
                    { for kinds.iter().map(|(name, kind, f_ops, f_seq, f_path)| {
                        let c = complexity(*kind, *n, d);
                        html! {
                            <tr>
                                <th scope="row">{ name.t(lang) }</th>
                                <td data-ops={c.ops.to_string()}>{ format!("{f_ops} = {}", count(c.ops as u64)) }</td>
                                <td>{ format!("{f_seq} = {}", rounded(c.sequential, 1)) }</td>
                                <td data-path={c.path.to_string()}>{ format!("{f_path} = {}", c.path) }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            <p class="note" data-cheaper={if sa.ops < rnn.ops { "attention" } else { "rnn" }}>{ format!("n = {}, d = {d}: {}", *n, cheaper.t(lang)) }</p>
            <p class="note" data-reach={layers_to_reach(m, w).to_string()}>
                { fill(LabText::LabReach.t(lang), &[&w.to_string(), &m.to_string(), &layers_to_reach(m, w).to_string()]) }
            </p>
        </div>
    }
}
