//! How the page shows a matrix besides its numbers: the layout, the
//! language and what its formula reads ([`Look`]), and each formula built
//! once ([`formula_once`]). The workbench's sections (`src/app/workbench/`)
//! share it.

use super::{MatrixProps, Role};
use crate::app::i18n::Lang;
use crate::lesson::formulas::{attention_formula, formula};
use crate::lesson::names::{Convention, MatrixName};
use std::rc::Rc;
use yew::AttrValue;

/// What a page matrix's props depend on besides the matrix: the layout,
/// the language, and what its formula reads (scaling on, a W_O).
#[derive(Clone, Copy)]
pub struct Look {
    pub conv: Convention,
    pub scale: bool,
    pub has_w_o: bool,
    pub lang: Lang,
}

impl Look {
    /// Props of matrix `name` (values `m`), with its formula, shown in
    /// this layout.
    pub fn props(
        self,
        name: MatrixName,
        m: &crate::attention::Matrix,
        caption: AttrValue,
        role: Role,
        rows: Rc<Vec<String>>,
        cols: Rc<Vec<String>>,
    ) -> MatrixProps {
        let mut p = MatrixProps::new(
            name,
            m.clone(),
            formula_once(name, self.conv, self.scale, self.has_w_o),
            caption,
            role,
            rows,
            cols,
            self.lang,
        );
        p.transpose = self.conv == Convention::Col;
        p
    }
}

/// `has_w_o` meaning "the big formula" ([`attention_formula`]) in
/// [`formula_once`]'s key: no matrix formula is asked for with it.
pub const BIG_FORMULA: Option<bool> = None;

/// A matrix's formula ([`formula`]; [`attention_formula`] when `has_w_o`
/// is [`BIG_FORMULA`]), built once per set of arguments: a few hundred
/// bytes of MathML that every render of the page would otherwise build
/// again for every matrix shown.
pub fn formula_once(
    name: MatrixName,
    conv: Convention,
    scale: bool,
    has_w_o: impl Into<Option<bool>>,
) -> String {
    type Key = (MatrixName, Convention, bool, Option<bool>);
    thread_local! {
        static BUILT: std::cell::RefCell<Vec<(Key, String)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let key = (name, conv, scale, has_w_o.into());
    BUILT.with_borrow_mut(|built| {
        if let Some((_, f)) = built.iter().find(|(k, _)| *k == key) {
            return f.clone();
        }
        let f = match key.3 {
            Some(has_w_o) => formula(name, conv, scale, has_w_o),
            None => attention_formula(conv, scale),
        };
        built.push((key, f.clone()));
        f
    })
}
