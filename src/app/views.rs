//! The figures the page can show alone (`?embed=1&view=NAME`), in one
//! table: each one's `view=` name, its title in the embed list, whether it
//! is a lab (drawn by the labs' chunk) and the settings it keeps in the
//! address. The address parser, the toolbar's embed list, the embed code
//! and the labs bridge all read it; the labs' chunk's own list of what to
//! mount is `labs::LABS`. Adding a lab: its file in `src/app/labs/`, a row
//! here, a row in `labs::LABS` (docs/architecture.md, "How to add a lab").

use super::i18n::{Lang, PageText, TrainPageText};

/// Which figure an embedded page shows (`?view=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum View {
    /// The matrices (the default).
    Workbench,
    /// The animated walkthrough (the stage).
    Walkthrough,
    /// The heads' weight heatmaps.
    Heatmaps,
    /// The √d_k lab.
    Scaling,
    /// The dot product as lengths and an angle.
    Geometry,
    /// Dot, scaled dot and additive scoring side by side.
    Scoring,
    /// Order: the permutation check and the positional encoding.
    Positions,
    /// The mask editor (grid and graph).
    Masks,
    /// The pipeline strip with dropout.
    Dropout,
    /// What attention costs, and cheaper variants.
    Cost,
    /// What can be a token: image patches, audio frames, graph nodes (its
    /// own chunk, `src/app/tokens_lab/`).
    Tokens,
    /// The training lab (its own chunk, `src/app/train_lab/`).
    Train,
}

/// A figure's name in the embed list, from the page's table or (the
/// training lab) the training lab's page table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Title {
    Page(PageText),
    Train(TrainPageText),
}

impl Title {
    /// Its text in `lang`.
    pub fn t(self, lang: Lang) -> &'static str {
        match self {
            Title::Page(k) => k.t(lang),
            Title::Train(k) => k.t(lang),
        }
    }
}

/// One row of [`VIEWS`].
#[derive(Debug)]
pub struct ViewInfo {
    pub view: View,
    /// The `view=` name (and a lab's `data-lab`).
    pub name: &'static str,
    /// Its name in the toolbar's embed list.
    pub title: Title,
    /// Drawn by the labs' chunk (loaded after the first paint).
    pub lab: bool,
    /// The settings it keeps in the address, namespaced by its name
    /// (`scaling.dk`): read when it opens, written when the reader changes
    /// them, carried by its embed code.
    pub settings: &'static [&'static str],
}

/// Every figure, in the order the toolbar offers them.
pub const VIEWS: [ViewInfo; 12] = [
    ViewInfo {
        view: View::Walkthrough,
        name: "walkthrough",
        title: Title::Page(PageText::ViewWalkthrough),
        lab: false,
        settings: &[],
    },
    ViewInfo {
        view: View::Heatmaps,
        name: "heatmaps",
        title: Title::Page(PageText::ViewHeatmaps),
        lab: false,
        settings: &[],
    },
    ViewInfo {
        view: View::Workbench,
        name: "workbench",
        title: Title::Page(PageText::ViewWorkbench),
        lab: false,
        settings: &[],
    },
    ViewInfo {
        view: View::Scoring,
        name: "scoring",
        title: Title::Page(PageText::ViewScoring),
        lab: true,
        settings: &[],
    },
    ViewInfo {
        view: View::Positions,
        name: "positions",
        title: Title::Page(PageText::ViewPositions),
        lab: true,
        settings: &["positions.pe", "positions.order"],
    },
    // The masks lab edits the scenario's own mask, which `#s=` carries.
    ViewInfo {
        view: View::Masks,
        name: "masks",
        title: Title::Page(PageText::ViewMasks),
        lab: true,
        settings: &[],
    },
    ViewInfo {
        view: View::Dropout,
        name: "dropout",
        title: Title::Page(PageText::ViewDropout),
        lab: true,
        settings: &[
            "dropout.train",
            "dropout.p",
            "dropout.seed",
            "dropout.query",
            "dropout.head",
        ],
    },
    ViewInfo {
        view: View::Cost,
        name: "cost",
        title: Title::Page(PageText::ViewCost),
        lab: true,
        settings: &["cost.window", "cost.rank", "cost.metric"],
    },
    ViewInfo {
        view: View::Geometry,
        name: "geometry",
        title: Title::Page(PageText::ViewGeometry),
        lab: true,
        settings: &["geometry.v", "geometry.key"],
    },
    ViewInfo {
        view: View::Scaling,
        name: "scaling",
        title: Title::Page(PageText::ViewScaling),
        lab: true,
        settings: &["scaling.dk", "scaling.seed"],
    },
    // Not one of the labs' chunk: chunks of their own, loaded when opened
    // (src/app/chunks/tokens_bridge.rs, train_bridge.rs).
    ViewInfo {
        view: View::Tokens,
        name: "tokens",
        title: Title::Train(TrainPageText::ViewTokens),
        lab: false,
        settings: &[
            "tokens.kind",
            "tokens.patch",
            "tokens.duration",
            "tokens.reach",
        ],
    },
    ViewInfo {
        view: View::Train,
        name: "train",
        title: Title::Train(TrainPageText::ViewTrain),
        lab: false,
        settings: &[],
    },
];

impl View {
    /// The figure a `view=` name names, if any.
    pub fn parse(name: &str) -> Option<View> {
        VIEWS.iter().find(|i| i.name == name).map(|i| i.view)
    }

    /// This figure's row of [`VIEWS`].
    pub fn info(self) -> &'static ViewInfo {
        VIEWS
            .iter()
            .find(|i| i.view == self)
            .expect("every view has its row in VIEWS")
    }

    /// The `view=` name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Whether the labs' chunk draws it.
    pub fn is_lab(self) -> bool {
        self.info().lab
    }

    /// Whether the figure draws the scenario (the geometry and scaling labs
    /// draw their own vectors and samples): only these get a caption line.
    pub fn shows_scenario(self) -> bool {
        !matches!(
            self,
            View::Geometry | View::Scaling | View::Tokens | View::Train
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_view_has_one_row_and_names_parse_back() {
        for (k, row) in VIEWS.iter().enumerate() {
            assert_eq!(View::parse(row.name), Some(row.view));
            assert_eq!(row.view.info().name, row.name);
            assert!(VIEWS[k + 1..]
                .iter()
                .all(|o| o.view != row.view && o.name != row.name));
            for s in row.settings {
                assert!(
                    s.starts_with(&format!("{}.", row.name)),
                    "{s} belongs to {}",
                    row.name
                );
            }
        }
        assert_eq!(View::parse("nothing"), None);
    }

    /// The labs the table calls labs are exactly those the labs' chunk
    /// mounts (the toolbar's order and the page's may differ): a lab added
    /// to one list and not the other fails here.
    #[test]
    fn the_labs_here_are_the_labs_the_chunk_mounts() {
        let name = |v: View| v.info().name;
        let mut here: Vec<&str> = VIEWS.iter().filter(|v| v.lab).map(|v| v.name).collect();
        let mut mounted: Vec<&str> = crate::app::labs::LABS
            .iter()
            .map(|(v, _)| name(*v))
            .collect();
        here.sort_unstable();
        mounted.sort_unstable();
        assert_eq!(here, mounted);
    }
}
