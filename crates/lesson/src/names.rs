//! Names shared by the teaching code and the page: which matrix, which
//! convention.

/// The page language (every user-visible text exists in both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    Zh,
    En,
}

impl Lang {
    /// The `?lang=` / `<html lang>` code.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }

    /// Reads `zh` / `en` (also `zh-CN`, `en-US`, any case).
    pub fn parse(code: &str) -> Option<Lang> {
        let c = code.trim().to_ascii_lowercase();
        if c == "zh" || c.starts_with("zh-") || c.starts_with("zh_") {
            Some(Lang::Zh)
        } else if c == "en" || c.starts_with("en-") || c.starts_with("en_") {
            Some(Lang::En)
        } else {
            None
        }
    }

    /// The language of a browser's `navigator.language`: Chinese for any
    /// `zh*`, English otherwise.
    pub fn from_browser(code: &str) -> Lang {
        if code.to_ascii_lowercase().starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    /// The other language (for the switch).
    pub fn other(self) -> Lang {
        match self {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        }
    }
}

/// Every matrix the page can show (docs/format.md §3 names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatrixName {
    X,
    Pe,
    /// What the projections see when it is not `x` itself: `[X | E]` with
    /// one-hot positions (`data-matrix="input"`, n × (d_model + n)).
    Input,
    WQ,
    WK,
    WV,
    Q,
    K,
    V,
    Scores,
    Scaled,
    Weights,
    HeadOutput,
    Concat,
    WO,
    /// A layer's own output `O_l` when layers stack (docs/format.md §1b):
    /// `X_l + B_l` with the residual, else `B_l`. `output` is the last one.
    LayerOutput,
    Output,
}

impl MatrixName {
    /// Every name, in pipeline order.
    pub const ALL: [MatrixName; 17] = [
        MatrixName::X,
        MatrixName::Pe,
        MatrixName::Input,
        MatrixName::WQ,
        MatrixName::WK,
        MatrixName::WV,
        MatrixName::Q,
        MatrixName::K,
        MatrixName::V,
        MatrixName::Scores,
        MatrixName::Scaled,
        MatrixName::Weights,
        MatrixName::HeadOutput,
        MatrixName::Concat,
        MatrixName::WO,
        MatrixName::LayerOutput,
        MatrixName::Output,
    ];

    /// The `data-matrix` value.
    pub fn contract_name(self) -> &'static str {
        match self {
            MatrixName::X => "x",
            MatrixName::Pe => "pe",
            MatrixName::Input => "input",
            MatrixName::WQ => "w_q",
            MatrixName::WK => "w_k",
            MatrixName::WV => "w_v",
            MatrixName::Q => "q",
            MatrixName::K => "k",
            MatrixName::V => "v",
            MatrixName::Scores => "scores",
            MatrixName::Scaled => "scaled",
            MatrixName::Weights => "weights",
            MatrixName::HeadOutput => "head_output",
            MatrixName::Concat => "concat",
            MatrixName::WO => "w_o",
            MatrixName::LayerOutput => "layer_output",
            MatrixName::Output => "output",
        }
    }

    /// Whether the matrix belongs to one head (`data-head`).
    pub fn per_head(self) -> bool {
        matches!(
            self,
            MatrixName::WQ
                | MatrixName::WK
                | MatrixName::WV
                | MatrixName::Q
                | MatrixName::K
                | MatrixName::V
                | MatrixName::Scores
                | MatrixName::Scaled
                | MatrixName::Weights
                | MatrixName::HeadOutput
        )
    }
}

/// How vectors are laid out on screen. The engine always works in rows;
/// the column view (note `000` §4.5: one token per column, `Q = W^q X`,
/// `S = KᵀQ`, softmax down each column, `B = VA`) shows every matrix
/// transposed, with labels and formulas to match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Convention {
    /// Rows are positions: `Q = XW_Q`, `softmax(QKᵀ/√d_k)V` (note `000` §8).
    #[default]
    Row,
    /// Columns are positions: `Q = W^q X`, `B = V softmax_col(KᵀQ/√d_k)`.
    Col,
}

impl Convention {
    /// The `?convention=` value.
    pub fn code(self) -> &'static str {
        match self {
            Convention::Row => "row",
            Convention::Col => "col",
        }
    }

    /// Reads `row` / `col`.
    pub fn parse(code: &str) -> Option<Convention> {
        match code {
            "row" => Some(Convention::Row),
            "col" => Some(Convention::Col),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_contracts() {
        let names: Vec<&str> = MatrixName::ALL.iter().map(|m| m.contract_name()).collect();
        assert_eq!(
            names.join(","),
            "x,pe,input,w_q,w_k,w_v,q,k,v,scores,scaled,weights,head_output,concat,w_o,layer_output,output"
        );
        assert!(MatrixName::Weights.per_head());
        assert!(!MatrixName::Output.per_head());
    }

    #[test]
    fn convention_codes() {
        for c in [Convention::Row, Convention::Col] {
            assert_eq!(Convention::parse(c.code()), Some(c));
        }
        assert_eq!(Convention::parse("rows"), None);
    }
}

/// What a value is, with note 004's colour for it (query red, key orange,
/// value purple, scores blue, weighted values yellow, outputs dark green).
/// The page always names the role too (a caption or label), never colour
/// alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    Input,
    Param,
    Query,
    Key,
    Value,
    Score,
    Weight,
    Weighted,
    Output,
    /// Operators and notes.
    Plain,
}

impl Role {
    /// The CSS class of the role (`role-query`, …).
    pub fn class(self) -> &'static str {
        match self {
            Role::Input => "role-input",
            Role::Param => "role-param",
            Role::Query => "role-query",
            Role::Key => "role-key",
            Role::Value => "role-value",
            Role::Score => "role-score",
            Role::Weight => "role-weight",
            Role::Weighted => "role-weighted",
            Role::Output => "role-output",
            Role::Plain => "role-plain",
        }
    }
}
