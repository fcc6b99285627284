//! The heatmap's texts ([`MapText`]): the page's heads and the training lab's
//! heads draw the same maps (`src/app/heatmap/`), so these words are in a
//! table of their own, shared by the page and the training lab, rather than
//! the page's whole table reached from the training lab.

use super::{strings, Lang};

strings! {
    MapText, MAPS, super::BASE_H;
    TipScore => "分数", "score";
    TipScaled => "缩放后的分数", "scaled score";
    TipWeight => "权重", "weight";
    LegendDiff => "差值", "difference";
    HeatmapRole => "热图", "heatmap";
    HeatmapKeysNoEnter => "方向键在格子间移动", "Arrow keys move between cells";
    UndefinedShort => "没有定义", "undefined";
    HeatmapKeys => "方向键在格子间移动，回车放大这个头", "Arrow keys move between cells; Enter enlarges this head";
    ShowTable => "以表格显示", "Show as a table";
    HideTable => "收起表格", "Hide the table";
    HeadHeading => "头", "Head";
    MaskedCell => "被屏蔽", "masked";
    UndefinedRow => "这一行的所有键都被屏蔽，softmax 没有定义，因此没有权重和输出。",
        "Every key of this row is masked: its softmax is undefined, so it has no weights and no output.";
}
