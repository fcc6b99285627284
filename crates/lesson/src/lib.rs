//! Pure teaching code: the notes' worked examples as presets, how numbers
//! are shown and parsed, derivations of single cells, formulas, code
//! snippets. No browser APIs here, so all of it is tested natively.

pub mod captions;
pub mod derive;
pub mod edit;
pub mod format;
pub mod formulas;
pub mod glyphs;
pub mod grid;
pub mod heads;
pub mod heatmap;
pub mod induction;
pub mod labs;
pub mod mathml;
pub mod names;
pub mod notation;
pub mod parse;
pub mod presets;
/// The seeded generator lives with the engine (it fills random scenarios).
pub use attention::random;
pub mod snippets;
pub mod stage;
pub mod timeline;
pub mod tour;
pub mod window;
