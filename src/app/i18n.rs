//! Every string a user can see, in Chinese and English, in one table.
//!
//! The table is written with one macro so that a key cannot exist without
//! both languages; a test checks that neither is empty.

pub use crate::lesson::names::Lang;

macro_rules! strings {
    ($($key:ident => $zh:expr, $en:expr;)*) => {
        /// A key of the string table.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum S { $($key),* }

        /// Chinese and English of every key, in the order of `S`.
        const TABLE: &[[&str; 2]] = &[$([$zh, $en]),*];

        impl S {
            /// Every key, for the completeness test.
            pub const ALL: &'static [S] = &[$(S::$key),*];

            /// The text of this key in `lang`.
            pub fn t(self, lang: Lang) -> &'static str {
                TABLE[self as usize][(lang == Lang::En) as usize]
            }
        }
    };
}

strings! {
    Title => "注意力实验室", "Attention Lab";
    HeadsHeading => "各头的注意力权重", "Attention weights of each head";
    HeadsIntro => "同一个输入，每个头用自己的 W_Q、W_K、W_V，所以得到自己的一组权重。所有头共用一个颜色刻度；点击一个头把它放大；把鼠标移到格子上（或聚焦后用方向键）可以看到分数、缩放后的分数和权重。",
        "The same input, but each head has its own W_Q, W_K and W_V, and so its own weights. All heads share one colour scale; click a head to enlarge it; hover a cell (or focus the map and use the arrow keys) to read its score, scaled score and weight.";
    AxesQueriesDown => "每行是一个查询，每列是一个键。", "Rows are queries, columns are keys.";
    AxesKeysDown => "每行是一个键，每列是一个查询（按列的写法）。", "Rows are keys, columns are queries (the column layout).";
    QueryWord => "查询", "query";
    KeyWord => "键", "key";
    TipScore => "分数", "score";
    TipScaled => "缩放后的分数", "scaled score";
    TipWeight => "权重", "weight";
    LegendDiff => "差值", "difference";
    NoDefinedRows => "每个查询的所有键都被屏蔽：这个头没有任何定义了的权重。", "Every key of every query is masked: this head has no defined weights.";
    HeatmapRole => "热图", "heatmap";
    HeatmapKeysNoEnter => "方向键在格子间移动", "Arrow keys move between cells";
    UndefinedShort => "没有定义", "undefined";
    Evenly => "（所有键一样多）", "(all keys evenly)";
    MeanEntropy => "平均熵", "mean entropy";
    Bits => "比特", "bits";
    IfEven => "均匀分布时为", "evenly spread:";
    LooksMost => "最关注", "looks most at";
    HeatmapKeys => "方向键在格子间移动，回车放大这个头", "Arrow keys move between cells; Enter enlarges this head";
    ShowTable => "以表格显示", "Show as a table";
    HideTable => "收起表格", "Hide the table";
    DiffHeading => "两个头的差别", "How two heads differ";
    DiffIntro => "每个格子是头 A 的权重减去头 B 的权重：橙色表示头 A 更关注这个键，紫色表示头 B 更关注。",
        "Each cell is head A's weight minus head B's: orange where head A attends more, purple where head B does.";
    DiffA => "头 A", "Head A";
    DiffB => "头 B", "head B";
    SplitHeading => "一个大 W_Q，还是 h 个小 W_Q？", "One big W_Q, or h small ones?";
    SplitIntro => "代码库常把各头的 W_Q 并排拼成一个 d_model × (h·d_k) 的大矩阵，乘一次再切开。按 d_k 列切成 h 块，正好就是每个头自己的 W_Q（数字完全相同）；X·W_Q 同样切开，正好是每个头的 Q。",
        "Libraries often put the heads' W_Q side by side in one d_model × (h·d_k) matrix, multiply once, and cut the result. Cut into h blocks of d_k columns it is exactly each head's own W_Q (the same numbers), and X·W_Q cut the same way is exactly each head's Q.";
    SplitIntroCol => "代码库常把各头的 W^q 上下叠成一个 (h·d_k) × d_model 的大矩阵，乘一次再切开。按 d_k 行切成 h 块，正好就是每个头自己的 W^q（数字完全相同）；W^q X 同样切开，正好是每个头的 Q。",
        "Libraries often stack the heads' W^q into one (h·d_k) × d_model matrix, multiply once, and cut the result. Cut into h blocks of d_k rows it is exactly each head's own W^q (the same numbers), and W^q X cut the same way is exactly each head's Q.";
    SplitIdentical => "检查：一次大乘法切开后的每一块，与引擎逐头算出的 Q 逐位相同。", "Check: each block of the one big product equals the Q the engine computed for that head, bit for bit.";
    SplitDifferent => "检查失败：大乘法切开后的块与逐头算出的 Q 不同。", "Check failed: the blocks of the big product differ from the heads' Q.";
    NotesHeading => "笔记的写法：先共享投影，再每个头一个矩阵", "The notes' form: one shared projection, then a matrix per head";
    NotesIntro => "笔记 000 §5.1 先算所有头共用的 qⁱ = W^q aⁱ，再让第 r 个头乘自己的矩阵：q^{i,r} = W^{q,r} qⁱ。这里共享的 qⁱ 是各头 W_Q 并排后的投影（h·d_k 维），W^{q,r} 是一个 0/1 矩阵，只取出第 r 个头的 d_k 个数。以下数字都由引擎在当前场景上算出。",
        "Note 000 §5.1 first computes qⁱ = W^q aⁱ, shared by all heads, then head r multiplies it by its own matrix: q^{i,r} = W^{q,r} qⁱ. Here the shared qⁱ is the projection by the heads' W_Q side by side (h·d_k numbers) and W^{q,r} is a 0/1 matrix that picks head r's d_k of them. Every number below is computed by the engine on the current scenario.";
    NotesToken => "位置 i", "Token i";
    NotesHead => "头 r", "Head r";
    NotesEqual => "q^{i,r} 与头 r 的 Q 的第 i 行逐位相同：", "q^{i,r} equals row i of head r's Q, bit for bit:";
    Yes => "是", "yes";
    No => "否", "no";
    NotesRelate => "两种写法的关系：共享投影之后再乘任何一个每头矩阵，都可以先乘成一个矩阵 W^{q,r}W^q，它就是一块 d_k × d_model 的投影。所以笔记的写法（先共享、再每头一个矩阵）与代码库的写法（每个头一块 W_Q）能表示的是同一族函数，代码库只是直接存下这个乘积。",
        "How the two forms relate: any per-head matrix applied after a shared projection multiplies out into a single matrix W^{q,r}W^q, one d_k × d_model block. So the notes' form (a shared projection, then a matrix per head) and the library's form (one block of W_Q per head) compute the same family of functions; the library just stores the product.";
    NotesLearned => "每个头关注什么是训练中学出来的，不是人为固定的“语法头”或“语义头”。预设“两个头”的权重是手工设定的，只为让两种模式一眼可见。",
        "What each head attends to is learned in training, not a fixed \"grammar\" or \"semantic\" head. The two-heads preset's weights were set by hand, only to make its two patterns visible.";
    CombineOneHead => "只有一个头：它的输出就是这一层的输出。", "With one head, its output is the layer's output.";
    CombineOneHeadWo => "只有一个头：它的输出再乘以 W_O，得到每个位置的输出。", "With one head, its output is multiplied by W_O to give each position's output.";
    CombineNoWo => "各头的输出并排拼接（不是取平均）；这个场景没有 W_O，拼接结果就是输出。",
        "The heads' outputs are put side by side (not averaged); this scenario has no W_O, so the concatenation is the output.";
    CombineNote => "接下来，各头的输出并排拼接（不是取平均），再乘以 W_O：见下面的“合并各头”。",
        "Next, the heads' outputs are put side by side (not averaged) and multiplied by W_O: see “Combining the heads” below.";
    Tagline => "亲手算一遍自注意力：每个矩阵都由你的数字实时算出。",
        "Compute self-attention yourself: every matrix comes live from your numbers.";
    SwitchLang => "English", "中文";
    ScenarioHeading => "当前场景", "Current scenario";
    ScenarioSummary => "位置数 n，输入宽度 d_model，d_k，d_v，头数 h", "positions n, input width d_model, d_k, d_v, heads h";
    ScaleOn => "分数除以 √d_k", "scores divided by √d_k";
    ScaleOff => "不缩放（与笔记 004 相同，直接对 QKᵀ 做 softmax）",
        "no scaling (as in note 004: softmax of QKᵀ directly)";
    MaskLabel => "掩码", "Mask";
    MaskNone => "无", "none";
    MaskCausal => "因果（只看自己和之前的位置）", "causal (self and earlier positions)";
    MaskPadding => "填充：只有前 L 个键有效", "padding: only the first L keys are real";
    MaskWindow => "窗口：|i − j| ≤ W", "window: |i − j| ≤ W";
    MaskCustom => "自定义", "custom";
    PositionalLabel => "位置编码", "Positional encoding";
    PositionalNone => "无", "none";
    PositionalSin => "正弦位置编码，加到 X 上", "sinusoidal, added to X";
    PositionalOneHot => "独热位置向量 eⁱ，拼接在 X 后", "one-hot eⁱ, concatenated to X";
    InputsHeading => "输入", "Inputs";
    HeadHeading => "头", "Head";
    ProjectionsHeading => "投影矩阵（可学习参数）", "Projections (learned parameters)";
    QkvHeading => "Query、Key、Value", "Queries, keys, values";
    AttentionHeading => "注意力分数与权重", "Attention scores and weights";
    CombineHeading => "合并各头", "Combining the heads";
    OutputHeading => "输出", "Output";
    CapX => "输入 X：第 i 行是位置 i 的向量 aⁱ", "Input X: row i is position i's vector aⁱ";
    CapXCol => "输入 X：第 i 列是位置 i 的向量 aⁱ（笔记 000 §4.5 的写法）", "Input X: column i is position i's vector aⁱ (note 000 §4.5)";
    CapScoresCol => "注意力分数 S = KᵀQ：第 i 列是 qⁱ 与每个 kʲ 的点积", "Attention scores S = KᵀQ: column i is qⁱ dotted with every kʲ";
    CapWeightsCol => "注意力权重：每列做 softmax，和为 1", "Attention weights: softmax down each column, summing to 1";
    CapPe => "位置编码 PE（加到 X 上）", "Positional encoding PE (added to X)";
    CapInputOneHot => "投影看到的输入 [X | E]：每行 aⁱ 后面拼接独热位置向量 eⁱ（第 i 位为 1），宽 d_model + n",
        "What the projections see, [X | E]: each row aⁱ with the one-hot position vector eⁱ (1 at place i) after it, d_model + n wide";
    CapInputOneHotCol => "投影看到的输入 [X;E]：每列 aⁱ 下面接上独热位置向量 eⁱ（第 i 位为 1），高 d_model + n",
        "What the projections see, [X;E]: each column aⁱ with the one-hot position vector eⁱ (1 at place i) below it, d_model + n tall";
    CapWq => "Query 投影：把每个输入 aⁱ 映射成查询 qⁱ", "Query projection: turns each input aⁱ into a query qⁱ";
    CapWk => "Key 投影：把每个输入 aⁱ 映射成键 kⁱ", "Key projection: turns each input aⁱ into a key kⁱ";
    CapWv => "Value 投影：把每个输入 aⁱ 映射成值 vⁱ", "Value projection: turns each input aⁱ into a value vⁱ";
    CapQ => "Query（我在找什么）", "Query (what am I looking for)";
    CapK => "Key（我能被怎样匹配）", "Key (what can I be matched by)";
    CapV => "Value（被关注时我提供什么）", "Value (what I give when attended to)";
    CapScores => "注意力分数：第 i 行是 qⁱ 与每个 kʲ 的点积", "Attention scores: row i is qⁱ dotted with every kʲ";
    CapScaled => "缩放后的分数：除以 √d_k，让 softmax 不会过早饱和", "Scaled scores: divided by √d_k so the softmax does not saturate";
    CapScaledOff => "缩放已关闭：这里等于原始分数", "Scaling is off here, so these equal the scores";
    CapWeights => "注意力权重：每行做 softmax，和为 1", "Attention weights: softmax of each row, summing to 1";
    CapHeadOutput => "该头的输出：权重对 V 加权求和，每个位置一个向量", "This head's output: the weights applied to V, one vector per position";
    CapConcat => "拼接：各头输出并排放在一起（不是取平均）", "Concatenation: the heads' outputs side by side (not averaged)";
    CapWo => "输出投影 W_O", "Output projection W_O";
    CapOutput => "输出 B：每个位置一个融合了上下文的新向量 bⁱ", "Output B: one new, context-aware vector bⁱ per position";
    CapOutputNoWo => "（场景没有 W_O，输出即拼接结果）", "(the scenario has no W_O, so the output is the concatenation)";
    MaskedCell => "被屏蔽", "masked";
    UndefinedRow => "这一行的所有键都被屏蔽，softmax 没有定义，因此没有权重和输出。",
        "Every key of this row is masked: its softmax is undefined, so it has no weights and no output.";
    UndefinedRowsAlert => "有查询行的所有键都被屏蔽，这些行的 softmax 没有定义（显示为 —）：",
        "Some query rows have every key masked; their softmax is undefined (shown as —): rows";
    ShowMatrix => "展开", "Show";
    HideMatrix => "收起", "Hide";
    CollapsedNote => "较大的中间矩阵默认收起。", "Large intermediate matrices start collapsed.";
    BadLink => "分享链接无法打开，你的内容没有任何改动。原因：", "The shared link could not be opened; nothing of yours was changed. Reason:";
    PreviousKept => "链接打开了另一个场景，你之前的内容仍然保留着。", "A link opened another scenario; your previous work is kept.";
    BackToPrevious => "回到我之前的内容", "Back to my previous work";
    OtherTab => "另一个标签页保存了更新的内容，这里已换成它。", "Another tab saved newer work; it is shown here.";
    StorageFailed => "这个浏览器没有保存你的内容（存储已满或被禁用）；要保留它，请导出场景。",
        "This browser is not keeping your work (storage is full or blocked); export the scenario to keep it.";
    LinkNotBase64 => "链接中 #s= 之后的内容不是有效的 base64url 编码", "the text after #s= is not valid base64url";
    LinkNotUtf8 => "解码后的内容不是 UTF-8 文本", "the decoded bytes are not UTF-8 text";
    Dismiss => "关闭", "Dismiss";
    Row => "行", "row";
    Col => "列", "column";
    Shape => "形状", "shape";
    ErrEmpty => "是空的，需要一个数字。", "is empty; a number is needed.";
    ErrNotANumber => "不是数字。", "is not a number.";
    ErrNotFinite => "超出了有限数的范围。", "is not a finite number.";
    ErrPasteEmpty => "粘贴的内容里没有数字。", "The pasted text holds no numbers.";
    ErrPasteRagged => "粘贴的各行长度不同：", "The pasted rows differ in length:";
    ErrPasteShapeExpected => "粘贴的矩阵形状不符：这里需要", "The pasted matrix does not fit: this one is";
    ErrPasteShapeGot => "粘贴的是", "the pasted one is";
    ErrRange => "需要一个整数，范围", "a whole number is needed, in the range";
    NothingChanged => "没有做任何修改。", "Nothing was changed.";
    LastGoodValue => "仍在使用上一个有效值", "The last good value stays in force:";
    TokenLabel => "位置标签", "Token label";
    Toolbar => "工具栏", "Toolbar";
    PresetLabel => "预设", "Preset";
    PresetNotes004 => "笔记 004 的例子", "Note 004's worked example";
    PresetISawASaw => "I saw a saw（两个相同的 saw）", "I saw a saw (two identical saws)";
    PresetILoveYou => "我喜欢你", "我喜欢你 (I like you)";
    PresetYouLoveMe => "你喜欢我", "你喜欢我 (you like me)";
    PresetUniform => "均匀注意力", "Uniform attention";
    PresetSelf => "只关注自己", "Attend to self";
    PresetPrevious => "关注前一个词", "Attend to the previous token";
    EmbedView => "嵌入哪个图", "Figure to embed";
    ViewWalkthrough => "逐步演示", "walkthrough";
    ViewHeatmaps => "热图", "heatmaps";
    ViewWorkbench => "工作台（可编辑）", "workbench (editable)";
    CombineNoteAlone => "接下来，各头的输出并排拼接（不是取平均），再乘以 W_O，得到每个位置的输出。",
        "Next, the heads' outputs are put side by side (not averaged) and multiplied by W_O to give each position's output.";
    PresetTwoHeads => "两个头：前一个词与第一个词", "Two heads: previous token and first token";
    AboutTwoHeads => "同一句话，两个头：头 1 关注前一个词，头 2 关注第一个词（因果掩码）。在下面的热图里一眼就能看出差别；两个头的输出并排拼接，再乘以 W_O。",
        "One sentence, two heads: head 1 attends to the previous token, head 2 to the first one (causal mask). The heatmaps below show the difference at a glance; the two outputs are put side by side and multiplied by W_O.";
    PresetRandom => "随机（种子）", "Random (seed)";
    PresetWide => "8 个头 × 64 = 512（种子）", "8 heads × 64 = 512 (seed)";
    AboutWide => "笔记 000 §5.1 的尺寸：d_model = 512，8 个头各 64 维，拼接后 512 维，再乘 512 × 512 的 W_O。数字由种子生成，取训练好的层常见的尺度：输入服从 N(0, 1)，W_Q、W_K、W_V 服从 N(0, 1/d_model)，所以缩放后的分数大约是标准正态，softmax 不饱和，各头的权重各不相同。宽矩阵一次显示 16 行 × 16 列的窗口，用滑块或方向键移动。",
        "Note 000 §5.1's sizes: d_model = 512, 8 heads of 64, concatenated to 512 and multiplied by a 512 × 512 W_O. The numbers come from the seed at the scale a trained layer has: inputs N(0, 1), W_Q, W_K, W_V N(0, 1/d_model), so the scaled scores are about standard normal, the softmax does not saturate, and every head's weights differ. A wide matrix shows a window of 16 rows × 16 columns; move it with its sliders or the arrow keys.";
    AboutNotes004 => "3 个宽度为 4 的输入，三个 4×3 投影，不缩放。", "Three inputs of width 4, three 4×3 projections, no scaling.";
    // {1}, {2}: the first row of weights rounded as the note does and exact;
    // {3}, {4}: the first output from each (see `rounded_note`).
    NoteRounded => "笔记为了好算，把第一行权重近似成 {1}（精确值是 {2}），得到第一行输出 [{3}]；这里用精确的 softmax，得到 [{4}]。",
        "To keep the arithmetic easy, the note approximates the first row of weights as {1} (exactly {2}) and gets [{3}] for the first output; here the exact softmax gives [{4}].";
    ListSep => "、", ", ";
    EmbedCaption => "附说明行", "with a caption";
    CaptionScaled => "分数除以 √d_k", "scaled by √d_k";
    CaptionNotScaled => "不缩放", "not scaled";
    AboutISawASaw => "X 的第 2 行和第 4 行完全相同（两个 saw）。加上位置编码后，它们的输出不同；关掉位置编码，两行输出就一模一样。",
        "Rows 2 and 4 of X are identical (the two saws). With positions added their outputs differ; turn positional encoding off and the two outputs become the same.";
    AboutILoveYou => "和“你喜欢我”比较：没有位置编码时，“我”的输出在两句里完全相同，只是换了行——注意力本身看不到词序。",
        "Compare with 你喜欢我: without positional encoding, 我's output is the same in both sentences, only on another row. Attention alone does not see word order.";
    AboutUniform => "W_Q 全为 0，所以每个分数都是 0，每个权重都是 1/n。", "W_Q is all zeros, so every score is 0 and every weight is 1/n.";
    AboutSelf => "qⁱ 与 kⁱ 方向相同、与其他键正交，所以每个位置几乎只关注自己。", "qⁱ points the same way as kⁱ and is orthogonal to the other keys, so each position attends almost only to itself.";
    AboutPrevious => "kʲ 指向下一个位置的方向，所以 qⁱ 与 kⁱ⁻¹ 最匹配；因果掩码让第一个位置只看自己。", "kʲ points at the next position, so qⁱ matches kⁱ⁻¹ best; the causal mask keeps the first position on itself.";
    AboutRandom => "由种子生成的随机数字：同一个种子，任何人看到的数字都一样。", "Random numbers from a seed: the same seed gives everyone the same numbers.";
    Seed => "种子", "Seed";
    NewSeed => "换一个种子", "New seed";
    Undo => "撤销", "Undo";
    Redo => "重做", "Redo";
    ConventionLabel => "写法", "Layout";
    ConventionRow => "按行（每行一个位置）", "Rows (one position per row)";
    ConventionCol => "按列（每列一个位置）", "Columns (one position per column)";
    ExportScenario => "导出场景", "Export scenario";
    LinkTooBig => "这个场景太大，放不进链接：请用“导出场景”保存和分享。", "This scenario is too large for a link: use Export scenario to save and share it.";
    ImportScenario => "导入场景", "Import scenario";
    ExportResults => "导出结果", "Export results";
    ShareLink => "复制分享链接", "Copy share link";
    CopyNumpy => "复制 NumPy 代码", "Copy NumPy code";
    CopyPytorch => "复制 PyTorch 代码", "Copy PyTorch code";
    Copied => "已复制到剪贴板。", "Copied to the clipboard.";
    CopyFailed => "浏览器不允许自动复制，请手动复制下面的内容：", "The browser did not allow copying; copy the text below yourself:";
    RefusedImport => "导入的场景无效，未做任何修改。原因：", "The imported scenario is invalid; nothing was changed. Reason:";
    RefusedEdit => "这个修改无效，未做任何修改。原因：", "That change is not allowed; nothing was changed. Reason:";
    ShapeHeading => "形状与选项", "Shape and options";
    DimN => "位置数 n", "positions n";
    DimDModel => "输入宽度 d_model", "input width d_model";
    DimDK => "d_k（Query/Key 宽度）", "d_k (query/key width)";
    DimDV => "d_v（Value 宽度）", "d_v (value width)";
    DimHeads => "头数 h", "heads h";
    ScaleToggle => "除以 √d_k", "divide by √d_k";
    WoToggle => "输出投影 W_O", "output projection W_O";
    MaskParamL => "L（有效键的个数）", "L (real keys)";
    MaskParamW => "W（窗口半径）", "W (window radius)";
    DerivationHeading => "计算过程", "Show your work";
    DerivationHint => "点击分数、权重或输出中的任意一个格子，查看它是怎么算出来的。", "Click any cell of the scores, weights or outputs to see how it was computed.";
    Close => "关闭", "Close";
    StepDotProduct => "点积：对应分量相乘再相加", "Dot product: multiply matching entries and add";
    StepScale => "缩放", "Scaling";
    StepMask => "掩码", "Mask";
    StepExp => "指数", "Exponential";
    StepNormaliser => "这一行的归一化因子（所有可见键的指数之和）", "The row's normaliser (sum of the exponentials over visible keys)";
    StepWeight => "权重 = 指数 ÷ 归一化因子", "Weight = exponential ÷ normaliser";
    StepWeightedSum => "加权求和：每个 Value 乘以它的权重再相加", "Weighted sum: each value times its weight, added up";
    StepProjection => "乘以输出投影 W_O", "Multiplied by the output projection W_O";
    StepCopy => "没有 W_O：输出就是拼接结果，这一格来自一个头的输出", "No W_O: the output is the concatenation, and this entry is one head's output";
    StepUndefined => "这一行的所有键都被屏蔽，softmax 没有定义。", "Every key of this row is masked: the softmax is undefined.";
    WalkthroughHeading => "逐步演示", "Walkthrough";
    Restart => "从头开始", "Restart";
    StepBack => "上一步（←）", "Step back (←)";
    StepForward => "下一步（→）", "Step forward (→)";
    PlayPauseKey => "播放 / 暂停（空格键）", "Play / pause (Space)";
    Play => "播放", "Play";
    Pause => "暂停", "Pause";
    StepLabel => "步骤", "Step";
    SpeedLabel => "速度", "Speed";
    GranularityLabel => "粒度", "Granularity";
    GranMatrix => "整个矩阵", "Whole matrices";
    GranRow => "逐个查询", "One query at a time";
    GranDot => "每个点积", "Every dot product";
    CopyEmbed => "复制嵌入代码", "Copy embed code";
    OpenFullPage => "在注意力实验室中打开 ↗", "Open in Attention Lab ↗";
    Colon => "：", ": ";
    PredictFirst => "先猜一猜：", "Predict first:";
    PredictRight => "猜对了。", "Right.";
    PredictWrong => "不对。", "Not quite.";
    PredictSkip => "直接看结果", "Just show me";
    AnswerGrows => "变大", "It grows";
    AnswerShrinks => "变小", "It shrinks";
    LabScalingTitle => "为什么要除以 √d_k？", "Why divide by √d_k?";
    LabScalingLead => "笔记的假设：q 和 k 的每个分量相互独立，均值为 0，方差为 1。于是每一项 q_c·k_c 的方差是 1，d_k 项之和 q·k 的方差是 d_k：向量越宽，分数越分散。",
        "The notes assume that the entries of q and k are independent, with mean 0 and variance 1. Then each product q_c·k_c has variance 1, and the sum q·k of d_k of them has variance d_k: the wider the vectors, the more spread out the scores.";
    LabScalingQuestion => "不缩放时，d_k 从 4 增大到 256，一行 8 个分数经过 softmax 后，最大的权重会变大还是变小？",
        "Without scaling, d_k goes from 4 to 256. After softmax over a row of 8 scores, does the largest weight grow or shrink?";
    LabScalingExplain => "分数越分散，softmax 越接近只选一个键（饱和）：最大权重趋近 1，熵趋近 0，softmax 的雅可比矩阵也趋近 0，传回分数的梯度随之消失。除以 √d_k 后方差回到 1，无论 d_k 多大，权重的样子都差不多。",
        "The more spread out the scores, the more softmax picks a single key (it saturates): the largest weight approaches 1, the entropy 0, and the softmax Jacobian 0 too, so the gradient reaching the scores vanishes. Divided by √d_k the variance is 1 again, and the weights look alike whatever d_k is.";
    LabScalingNumbers => "不缩放时最大权重（100 行的平均）：", "Largest weight without scaling (mean of 100 rows):";
    LabDk => "d_k（查询和键的宽度，1–512）", "d_k (width of queries and keys, 1–512)";
    LabSeed => "随机种子", "Seed";
    LabBadDk => "d_k 必须是 1 到 512 之间的整数，已保留原来的值", "d_k must be a whole number from 1 to 512; the last value stays";
    LabBadSeed => "种子必须是非负整数，已保留原来的值", "The seed must be a whole number ≥ 0; the last value stays";
    LabVariance => "样本方差", "sample variance";
    LabCurveTitle => "一行 8 个分数的最大权重随 d_k 的变化：", "Largest weight of a row of 8 scores as d_k grows:";
    LabRaw => "不缩放", "unscaled";
    LabScaled => "除以 √d_k", "÷√d_k";
    LabTableCaption => "一行 8 个分数经过 softmax 后（100 行的平均）", "After softmax over a row of 8 scores (mean of 100 rows)";
    LabMaxWeight => "最大权重", "largest weight";
    LabEntropy => "熵（比特）", "entropy (bits)";
    LabScalingNote => "笔记 004 第 7 节说缩放是为了防止“溢出”，并把 d_k 称作词向量的大小。更准确地说：d_k 是查询和键的宽度；真正的问题是 softmax 饱和、梯度变小。本页的 softmax 先减去这一行的最大值，所以从不溢出。",
        "Note 004 §7 says the scaling prevents \"overflow\" and calls d_k the size of the word vectors. More precisely, d_k is the width of the queries and keys, and the trouble is that softmax saturates and the gradients shrink. This page's softmax subtracts the row's largest score first, so it never overflows.";
    LabGeometryTitle => "点积：长度 × 长度 × cos θ", "The dot product: length × length × cos θ";
    LabGeometryLead => "q·k = |q| |k| cos θ（笔记 004 第 8 节）。拖动 q 和三个键（或聚焦一个箭头后用方向键，按住 Shift 走得更快），看分数和权重怎样变化。",
        "q·k = |q| |k| cos θ (note 004 §8). Drag q and the three keys (or focus an arrow and use the arrow keys, Shift for bigger steps) and watch the score and the weights change.";
    LabGeometryQuestion => "现在 k¹ 长 {1}，与 q 的夹角是 {2}°；k² 长 {3}，夹角是 {4}°。哪个键得到的权重更大？",
        "Now k¹ has length {1} at {2}° from q, and k² has length {3} at {4}°. Which key gets the larger weight?";
    LabGeometryExplain => "是 {1}：q·k¹ = {2}，q·k² = {3}，权重 {4} 对 {5}。分数是 |q| |k| cos θ：方向重要，长度也重要，一个更长但有夹角的键可以胜过一个短而同向的键。",
        "{1}: q·k¹ = {2} while q·k² = {3}, weights {4} against {5}. The score is |q| |k| cos θ: direction matters, and so does length, so a longer key at an angle can beat a short one pointing the same way.";
    LabGeometryWeights => "q 对三个键的 softmax 权重：", "Softmax weights of q over the three keys:";
    LabDragHint => "拖动或用方向键移动：", "Drag or use the arrow keys:";
    LabAnd => "与", "and";
    ViewGeometry => "点积的几何意义", "dot product geometry";
    LabScoringTitle => "给查询和键打分的三种方式", "Three ways to score a query against a key";
    LabScoringLead => "当前场景第 1 个头的 Q 和 K，用点积、缩放点积和加性打分（一个小网络）分别计算分数，再用同一个带屏蔽的 softmax 得到权重，乘以 V 得到输出。",
        "The current scenario's first head: its Q and K scored by the dot product, the scaled dot product and an additive score (a small network), each turned into weights by the same masked softmax, times V for the outputs.";
    LabScoringQuestion => "把每个分数都除以 √d_k 会改变数值。它会改变每个查询最关注的那个键吗？",
        "Dividing every score by √d_k changes the numbers. Does it change which key each query attends to most?";
    LabScoringExplain => "不会：同一行的分数都除以同一个正数，大小顺序不变，所以权重最大的键不变，只是 softmax 偏向它的程度变小了。加性打分是另一个函数，可能给键排出不同的顺序。",
        "No: every score of a row is divided by the same positive number, so their order stays and so does the key with the largest weight; only how sharply softmax prefers it changes. The additive score is a different function and may rank the keys differently.";
    AnswerYes => "会", "Yes";
    AnswerNo => "不会", "No";
    LabDot => "点积", "Dot product";
    LabScaledDot => "缩放点积", "Scaled dot product";
    LabAdditive => "加性打分", "Additive";
    LabScores => "分数", "scores";
    LabScoresCol => "分数（每列一个查询）", "scores (one query per column)";
    LabWeights => "权重（softmax）", "weights (softmax)";
    LabOutputs => "输出（权重 × V）", "outputs (weights × V)";
    LabMadds => "乘加次数：", "multiply-adds:";
    LabDivisions => "除法次数：", "divisions:";
    LabTanh => "tanh 次数：", "tanh calls:";
    LabParams => "加性打分的参数（可编辑，按 Enter 或离开格子生效）：", "The additive score's parameters (editable; Enter or leave the cell):";
    LabBadNumber => "不是有限的数，已保留原来的值", "Not a finite number; the last value stays";
    LabScoringWhy => "为什么笔记和各个库都用点积？所有查询对所有键的分数只是一次矩阵乘法 QKᵀ，在 GPU 上极快；加性打分要对每一对都算一遍小网络（tanh 还更贵）。再除以 √d_k，就能在 d_k 很大时避免 softmax 饱和。",
        "Why do the notes and the libraries use the dot product? All the scores of all queries against all keys are one matrix product QKᵀ, which hardware does very fast; the additive score runs a small network for every pair (and tanh costs more). Dividing by √d_k then keeps softmax from saturating when d_k is large.";
    ViewScoring => "三种打分方式", "three scoring functions";
    ViewPositions => "实验：位置编码", "Lab: positions";
    ViewMasks => "实验：掩码编辑器", "Lab: mask editor";
    ViewDropout => "实验：执行顺序与 dropout", "Lab: order and dropout";
    ViewCost => "实验：计算量与更省的做法", "Lab: cost and cheaper variants";
    ViewScaling => "为什么除以 √d_k", "why ÷√d_k";
    LabPositionsTitle => "顺序从哪里来：位置编码", "Where order comes from: positional encoding";
    LabPositionsLead => "自注意力只比较向量，不看它们排在第几位。把词打乱，每个词的输出只是跟着词换了一行；加上位置编码后，同一个词在不同位置是不同的向量，输出也就不同了（笔记 000 第 5.2 节，笔记 001）。",
        "Self-attention compares vectors; it never looks at where they stand. Shuffle the words and each word's output just moves with it to another row. With a positional encoding the same word at another place is another vector, so its output changes too (note 000 §5.2, note 001).";
    LabPositionsQuestion => "不加位置编码，把“我喜欢你”换成“你喜欢我”。“我”的输出会变吗？",
        "No positional encoding. Turn “I like you” into “you like me” (note 000's example). Does the output of “I” change?";
    LabPositionsChanges => "会变，它现在是宾语", "It changes: “I” is now the object";
    LabPositionsMoves => "不变，只是换到了另一行", "It stays the same, only on another row";
    LabPositionsExplain => "不变。“我”的向量没变，它和其他词的分数也没变（只是换了位置），softmax 和加权求和只是按另一种顺序相加，所以输出一模一样。注意力本身看不出词序，这就是要加位置编码的原因。",
        "It stays the same. The vector of “I” is unchanged and so are its scores against the other words (only their places moved); the softmax and the weighted sum add the same terms in another order, so the output is identical. Attention alone cannot see word order: that is why positions are added.";
    LabNoPe => "不加位置编码", "Without positional encoding";
    LabWithPe => "加上正弦位置编码", "With the sinusoidal encoding added";
    LabWithOneHot => "拼接独热位置向量 eⁱ", "With a one-hot eⁱ concatenated";
    AnswerYesPlain => "是", "yes";
    AnswerNoPlain => "否", "no";
    LabRowsEqual => "把行顺序还原后，每一行都相等：", "Rows equal after un-shuffling:";
    LabLargestDiff => "最大差", "largest difference";
    LabSameOutput => "在两句话中的输出相同。", "has the same output in both sentences.";
    LabOtherOutput => "在两句话中的输出不同。", "has a different output in each sentence.";
    LabShuffledOutputs => "打乱顺序后的输出：", "Outputs after shuffling:";
    LabShuffleUnavailable => "当前场景有未定义的行，无法比较。", "The current scenario has undefined rows; nothing to compare.";
    LabPairTitle => "我喜欢你 / 你喜欢我", "I like you / you like me";
    LabShuffleTitle => "打乱当前场景的词序", "Shuffle the current scenario's tokens";
    LabShuffleHow => "用当前场景的 X 和权重（这里不用掩码：掩码是跟位置绑定的）。点“打乱”，或者拖动词块，或者先后点两个词块交换它们。",
        "The current scenario's X and weights (without its mask here: a mask is tied to places). Press Shuffle, drag a token onto another, or click two tokens to swap them.";
    LabOrder => "词的顺序", "Token order";
    LabShuffle => "打乱", "Shuffle";
    LabOriginalOrder => "原来的顺序", "Original order";
    LabCompareWith => "对比的位置编码", "Compare with";
    LabPeTitle => "正弦位置编码长什么样", "What the sinusoidal encoding looks like";
    LabPeMapLabel => "正弦位置编码的热力图：32 个位置 × 32 个维度", "Heatmap of the sinusoidal encoding: 32 positions × 32 dimensions";
    LabPeMapCaption => "每一行是一个位置的向量（紫色 −1，白色 0，橙色 +1）。靠左的维度变化快，靠右的变化慢，所以每个位置都有自己的图案。黑框是当前场景用到的部分",
        "Each row is one position's vector (purple −1, white 0, orange +1). Low dimensions swing fast, high ones slowly, so every position gets its own pattern. The black frame is the part the current scenario uses";
    LabAddVsConcat => "加和拼接：原始 Transformer 把固定的 PE 加到 aⁱ 上（宽度不变）；笔记 001 把位置向量 eⁱ 拼接在 aⁱ 后面（宽度变大，W_Q、W_K、W_V 多出与位置对应的行）。拼接后再乘 W，等于 W 的输入部分乘 aⁱ 再加上位置部分乘 eⁱ：也就是加上一个学出来的位置向量。",
        "Adding or concatenating: the original Transformer adds a fixed PE to aⁱ (same width); note 001 concatenates a position vector eⁱ after aⁱ (wider input, so W_Q, W_K, W_V get extra rows for the positions). Multiplying the concatenation by W equals W's input part times aⁱ plus its position part times eⁱ: adding a learned position vector.";
    LabMasksTitle => "掩码：让注意力有 CNN、RNN 或 GNN 的视野", "Masks: giving attention the reach of a CNN, an RNN or a GNN";
    LabMasksLead => "掩码决定每个查询能看到哪些键。窗口掩码让注意力只看 CNN 卷积核能覆盖的邻居；因果掩码让每个位置只看它前面的词，和 RNN 或解码器读到的范围相同；图掩码让每个节点只看与它相连的节点，和 GNN 聚合的范围相同。范围相同，做法不同：CNN 的核权重是固定的参数，注意力的权重由分数算出；RNN 必须一步一步算，注意力一次算完所有位置（笔记 000 第 6.1–6.3 节）。点击或拖动格子来编辑当前场景的掩码。",
        "A mask decides which keys each query may see. A window mask lets attention see only the neighbours a CNN's kernel covers; a causal mask lets each position see only the words before it, what an RNN or a decoder has read by then; a graph mask lets each node see only the nodes joined to it, what a GNN aggregates. The reach is the same, the computation is not: a CNN's kernel weights are fixed parameters while attention computes its weights from scores, and an RNN runs step by step while attention computes every position at once (note 000 §6.1–6.3). Click or drag over the grid to edit the current scenario's mask.";
    LabMasksQuestion => "现在的掩码不让查询 {1} 看键 {2}（图中节点 {1} 没有连向节点 {2} 的边）。查询 {1} 给键 {2} 的权重是多少？",
        "The mask now hides key {2} from query {1} (in the graph, no edge joins node {1} to node {2}). What weight does query {1} give key {2}?";
    LabMasksQuestionOpen => "现在每个查询都能看到每个键。如果在格子里点第 {1} 行第 {2} 列，不让查询 {1} 看键 {2}，它给键 {2} 的权重会是多少？",
        "Every query sees every key now. If you click row {1}, column {2} of the grid to hide key {2} from query {1}, what weight will query {1} give key {2}?";
    LabMasksSmall => "一个很小的正数", "A small positive number";
    LabMasksZero => "正好是 0", "Exactly 0";
    LabMasksExplain => "正好是 0：下面“加上掩码后”的表里，查询 {1} 对键 {2} 的格子是“·”。被屏蔽的分数在 softmax 之前变成 −∞，e^{−∞} = 0，所以这个键不是“很少被关注”，而是根本不参加；查询 {1} 的其他权重仍然加起来等于 1。",
        "Exactly 0: in the table with the mask below, query {1}'s cell for key {2} is \"·\". A masked score becomes −∞ before the softmax and e^{−∞} = 0, so the key is not \"a little\" attended: it takes no part at all, and query {1}'s other weights still add up to 1.";
    LabMasksExplainOpen => "正好是 0。现在查询 {1} 给键 {2} 的权重是 {3}（下面的表）；屏蔽之后，这个分数在 softmax 之前变成 −∞，e^{−∞} = 0，所以这个键根本不参加，查询 {1} 的其他权重仍然加起来等于 1。点一下那个格子试试。",
        "Exactly 0. Query {1} gives key {2} a weight of {3} now (the table below); once hidden, its score becomes −∞ before the softmax and e^{−∞} = 0, so the key takes no part at all, and query {1}'s other weights still add up to 1. Click that cell and see.";
    LabMaskFull => "全部可见（全局注意力）", "Full (global attention)";
    LabMaskCausal => "因果（像 RNN 一样按顺序解码）", "Causal (decoding in order, like an RNN)";
    LabMaskWindow => "窗口（CNN 的感受野）", "Window (a CNN's receptive field)";
    LabMaskPadding => "填充（只看前 L 个键）", "Padding (only the first L keys)";
    LabMaskGraph => "图（GNN：星形图）", "Graph (GNN: a star)";
    LabMaskCustom => "自定义", "custom";
    LabMaskIs => "现在的掩码：", "The mask now:";
    LabMaskPresets => "掩码预设", "Mask presets";
    LabMaskGridLabel => "掩码：每行一个查询，每列一个键；按下表示可见", "Mask: one row per query, one column per key; pressed means visible";
    LabGridHow => "行是查询，列是键（编号同词的顺序）。深色格子可见，浅色被屏蔽。点击切换一个格子，按住拖动可以连续涂；键盘：方向键移动，Enter 或空格切换。",
        "Rows are queries, columns are keys (numbered as the tokens). Dark cells are visible, light ones masked. Click to flip a cell, drag to paint several; keyboard: arrows move, Enter or Space flips.";
    LabNode => "节点", "node";
    LabGraphHow => "节点就是各个词，编号同上。先后点两个节点，添加或删除它们之间的边（两个方向都可见）。", "The nodes are the tokens, numbered as in the grid. Click two nodes to add or remove the edge between them (visible both ways).";
    LabSelfLoops => "每个节点能看到自己（自环）", "Every node sees itself (self-loops)";
    LabGraphTooBig => "图编辑器最多显示 16 个节点；格子仍然可以编辑。", "The graph editor shows at most 16 nodes; the grid is still editable.";
    LabLocked => "这是只读页面：掩码只能查看。", "This page is read-only: the mask is shown, not editable.";
    LabBlindRows => "这些查询一个键也看不到，softmax 没有定义：", "These queries see no key at all, so their softmax is undefined:";
    LabWeightsNoMask => "第 1 个头，不加掩码的权重", "Head 1, weights without a mask";
    LabWeightsMasked => "第 1 个头，加上这个掩码后的权重（· 表示被屏蔽）", "Head 1, weights with this mask (· = masked)";
    LabMasksWhy => "CNN 的窗口是固定的，注意力的权重却是算出来的：窗口掩码只规定“能看哪里”，看多少仍由分数决定。RNN 必须一步一步算，而带因果掩码的注意力一次就能算出所有位置。",
        "A CNN's window has fixed weights; attention computes them: a window mask only says where a query may look, the scores still decide how much. An RNN must run step by step; attention with a causal mask computes every position at once.";
    LabDropoutTitle => "执行顺序：打分 → 掩码 → softmax → dropout → 乘 V", "The order: score → mask → softmax → dropout → ·V";
    LabDropoutLead => "笔记 001 写出了带掩码的自注意力的执行顺序。下面是当前场景中一个查询在每一步的数值。训练时，dropout 随机丢掉一些权重（概率 p），并把留下的乘以 1/(1−p)；推理时（默认）什么也不做。",
        "Note 001 writes out the order of masked self-attention. Below are one query's numbers at every stage of the current scenario. In training, dropout drops each weight with probability p and multiplies the kept ones by 1/(1−p); at inference (the default) it does nothing.";
    LabDropoutQuestion => "训练模式下（p = {1}），dropout 之后每一行权重加起来还等于 1 吗？", "In training mode (p = {1}), does each row of weights still add up to 1 after dropout?";
    LabDropoutNotAlways => "一般不等于 1", "In general, no";
    LabDropoutExplain => "一般不等于 1。p = {1} 时，留下的权重乘以 1/(1−p) = {2}，丢掉的变成 0，和可能大于 1 也可能小于 1。放大是为了让每个权重的期望值不变：平均下来和推理时一样。",
        "In general, no. With p = {1}, kept weights are multiplied by 1/(1−p) = {2} and dropped ones become 0, so a row may add up to more or less than 1. The rescaling keeps each weight's expected value: on average it equals the inference weight.";
    LabDropoutExplainZero => "等于 1：p = {1} 时什么也不丢，1/(1−p) = 1，权重不变。把 p 调大再看：一般就不等于 1 了。",
        "Yes: with p = {1} nothing is dropped and 1/(1−p) = 1, so the weights are unchanged. Raise p and look again: then, in general, no.";
    LabBadRate => "p 必须是 0 到 0.9 之间的数，已保留原来的值", "p must be a number from 0 to 0.9; the last value stays";
    LabStageMask => "掩码", "mask";
    LabInference => "推理", "inference";
    LabTraining => "训练", "training";
    LabMode => "模式", "Mode";
    LabRate => "丢弃率 p", "Drop rate p";
    LabNewDraw => "重新抽样", "New draw";
    LabHead => "头", "Head";
    LabStripCaption => "每一步的数值（每行一个键）", "the numbers at each stage (one row per key)";
    LabWhyNotOne => "训练模式：被丢掉的权重变成 0（划掉的格子），留下的乘以 1/(1−p)，所以这一行的和不再是 1，但每个权重的期望值不变。每次训练都会重新抽样；推理时不用 dropout。",
        "Training mode: dropped weights become 0 (struck-out cells) and the kept ones are multiplied by 1/(1−p), so the row no longer adds up to 1, but each weight keeps its expected value. Training draws anew every step; inference uses no dropout.";
    LabInferenceNote => "推理模式：dropout 不改变权重，每行的和是 1。切换到训练模式看看它做了什么。", "Inference mode: dropout leaves the weights alone and each row adds up to 1. Switch to training to see what it does.";
    LabAllWeights => "这个头在 dropout 之后的全部权重：", "This head's weights after dropout:";
    LabCostTitle => "注意力要花多少计算，以及更省的做法", "What attention costs, and cheaper variants";
    LabCostLead => "每个查询都要和每个键比较：一层注意力要做 O(n²·(d_k + d_v)) 次乘加，还要存下 n² 个分数（笔记 000 第 7 节）。下面的计数来自引擎本身：每种做法只写一次，既可以真的算，也可以只数不算，所以图上的数就是页面上算出来的数。",
        "Every query meets every key: one attention layer takes O(n²·(d_k + d_v)) multiply-adds and stores n² scores (note 000 §7). The counts below come from the engine itself: each variant is written once and can either compute or only count, so the numbers on the plot are the work of the computation shown on this page.";
    LabCostQuestion => "词数 n 翻一倍，计算分数矩阵 QKᵀ 的工作量变成原来的几倍？", "Double the number of tokens n. How much more work does the score matrix QKᵀ take?";
    LabCostExplain => "4 倍：分数矩阵有 n × n 个格子，每个格子是一次 d_k 维点积。n 翻倍，格子数变成 4 倍；投影 XW 只和 n 成正比，所以 n 大时分数和加权求和占了大头。",
        "Four times: the score matrix has n × n cells, each a dot product of width d_k. Doubling n quadruples the cells; the projections XW grow only with n, so for large n the scores and the weighted sums dominate.";
    LabDense => "稠密（标准）", "Dense (standard)";
    LabWindowed => "窗口 W", "Window W";
    LabLowRank => "低秩 r（Linformer）", "Low rank r (Linformer)";
    LabLinear => "线性注意力（φ = elu + 1）", "Linear (φ = elu + 1)";
    LabPlotLabel => "四种做法的计算量随 n 变化的双对数图", "Log–log plot of the four variants' work against n";
    LabExact => "精确", "exact";
    LabReference => "参照", "reference";
    LabCountsOnly => "这个场景太大，不在每次编辑时把每种做法都真的算一遍：这里只给出计数（与真算时的计数相同，有测试保证）。", "This scenario is too large to compute every way on each edit: the counts shown are the counting twin's (tested equal to the computed ones).";
    LabApprox => "近似", "approximation";
    LabWindowW => "窗口 W", "Window W";
    LabRankR => "秩 r", "Rank r";
    LabPlotWhat => "画什么", "Plot";
    LabMaddsCol => "乘加次数", "multiply-adds";
    LabExpsCol => "exp（或 φ）次数", "exp (or φ) calls";
    LabStoredCol => "存下的分数个数", "stored scores";
    LabPlotCaption => "横轴 n（1 到 4096），纵轴对数刻度；竖线是当前场景的", "n from 1 to 4096 across, log scale up; the vertical line is the current scenario's";
    LabCountsCaption => "当前场景按每种做法真的算一遍", "The current scenario computed each way";
    LabDiffCol => "与参照的最大差", "largest difference from its reference";
    LabCostHonest => "参照：窗口对比“带窗口掩码的标准注意力”（应该为 0，它就是同一个函数，只是不算窗口外的格子）；低秩对比不加掩码的标准注意力（把 K、V 按段平均成 r 行；r = n 时正好相等，Linformer 的投影是学出来的）；线性注意力对比因果掩码的标准注意力（换了一个核函数，是另一个函数，并且不除以 √d_k）。",
        "References: the window against standard attention with the window mask (should be 0: the same function, skipping the cells outside the window); low rank against standard attention without a mask (K and V averaged in segments down to r rows; equal when r = n; Linformer learns its projections); linear attention against standard causal attention (another kernel, so another function, with no ÷√d_k).";
    LabTimingTitle => "在这个浏览器里计时", "Timed in this browser";
    LabTimingHow => "用当前场景的宽度和头数，随机输入，计算完整的一层。每个 n 单独一个任务，中间把控制权交还给浏览器，所以页面不会卡住；太大的 n 会跳过。", "The current scenario's widths and heads with random inputs, one whole layer. Each n runs in its own task and the browser gets control back in between, so the page never freezes; sizes that would take too long in one task are skipped.";
    LabMeasure => "开始计时", "Measure";
    LabTimeCol => "每次用时", "time per run";
    LabSkipped => "跳过（太大）", "skipped (too large)";
    LabLinearTitle => "线性注意力：并行算和像 RNN 一样递推，结果相同", "Linear attention: in parallel, or step by step like an RNN, with the same result";
    LabLinearHow => "把 softmax 换成 φ(q)·φ(k) 之后，乘法可以换个顺序：先把 φ(kʲ)vʲᵀ 累加成一个 d_k × d_v 的状态 S，每来一个词只更新一次。这里用当前场景第 1 个头的 Q、K、V，带因果掩码。",
        "With φ(q)·φ(k) in place of the softmax the products can be regrouped: add up φ(kʲ)vʲᵀ into a d_k × d_v state S, updated once per token. Here: the current scenario's first head, Q, K and V, causal.";
    LabParallel => "并行形式（n × n）", "Parallel form (n × n)";
    LabRecurrent => "递推形式（状态 S、z）", "Recurrent form (state S, z)";
    LabPosition => "位置", "Position";
    LabPrevPos => "上一个位置", "Previous position";
    LabNextPos => "下一个位置", "Next position";
    LabKvTitle => "KV 缓存：一次解码一个词", "The KV cache: decoding one token at a time";
    LabKvHow => "生成时每次只多一个词。把前面各词的 K 和 V 存起来，新词只需要算自己的 q、k、v 和一行分数；得到的行和整句带因果掩码重算的结果逐位相同。",
        "When generating, each step adds one token. Keep the earlier tokens' K and V; the new token needs only its own q, k, v and one row of scores. The row equals, bit for bit, the causal layer recomputed on the whole sequence.";
    LabNewToken => "新词", "New token";
    LabSameRow => "与整句重算逐位相同", "Same bits as recomputing";
    LabWithCache => "用缓存的乘加", "multiply-adds with the cache";
    LabRecompute => "整句重算的乘加", "multiply-adds recomputing";
    LabWhyAttention => "为什么用注意力：和 RNN、CNN 比", "Why attention: against an RNN and a CNN";
    LabSelfAttention => "自注意力", "Self-attention";
    LabRecurrentLayer => "循环层（RNN）", "Recurrent (RNN)";
    LabConv => "卷积（核 k，空洞）", "Convolution (kernel k, dilated)";
    LabConvPlain => "卷积（核 k）", "Convolution (kernel k)";
    LabRestricted => "限制在窗口 W 内的自注意力", "Self-attention within a window W";
    LabOpsPerLayer => "每层计算量", "operations per layer";
    LabSequential => "必须依次做的步数", "sequential operations";
    LabPathLength => "两个位置之间的最长路径", "maximum path length";
    LabAttnCheaper => "n < d，自注意力比 RNN 层更省。", "n < d, so self-attention is cheaper than a recurrent layer.";
    LabRnnCheaper => "n ≥ d，RNN 层的计算量更小，但它必须一步一步算，路径长度也是 n。", "n ≥ d, so a recurrent layer does less work, but it must run step by step and its path length is n.";
    LabReach => "用窗口掩码（W = {1}）、n = {2} 时，要叠 {3} 层，最后一个位置才能看到第一个位置：每层信息最多走 W 步。",
        "With a window mask of W = {1} and n = {2}, it takes {3} stacked layers before the last position can see the first: information moves at most W places per layer.";
    LabsHeading => "实验：注意力为什么这样算", "Labs: why attention is computed this way";
    Footer => "所有计算都在你的浏览器中完成，不会发送任何数据。", "Everything is computed in your browser; nothing is sent anywhere.";
}

/// A sentence of the table with its numbers: `{1}`, `{2}`, … in `template`
/// become `args[0]`, `args[1]`, …. Numbers in sentences always come this way,
/// from the values the figure beside them shows, never typed into the table.
pub fn fill(template: &str, args: &[&str]) -> String {
    let mut out = String::with_capacity(template.len() + 16 * args.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let (before, after) = rest.split_at(open);
        out.push_str(before);
        let close = after.find('}').unwrap_or(0);
        match after[1..close.max(1)].parse::<usize>() {
            Ok(k) if close > 1 && (1..=args.len()).contains(&k) => {
                out.push_str(args[k - 1]);
                rest = &after[close + 1..];
            }
            _ => {
                out.push('{');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// ", row 3" / " 第 3 行" after a matrix's name (1-based).
pub fn row_suffix(lang: Lang, row: usize) -> String {
    match lang {
        Lang::Zh => format!(" 第 {row} 行"),
        Lang::En => format!(", row {row}"),
    }
}

/// "columns 17–32 of 512" (1-based, inclusive) for a windowed matrix axis.
pub fn window_text(lang: Lang, columns: bool, first: usize, last: usize, len: usize) -> String {
    match (lang, columns) {
        (Lang::Zh, true) => format!("第 {first}–{last} 列，共 {len} 列"),
        (Lang::Zh, false) => format!("第 {first}–{last} 行，共 {len} 行"),
        (Lang::En, true) => format!("columns {first}–{last} of {len}"),
        (Lang::En, false) => format!("rows {first}–{last} of {len}"),
    }
}

/// Note 004's rounding of the first row of weights, told with the engine's
/// numbers: the note rounds head 1's first row of weights to halves
/// (0, 0.5, 0.5) and weighs the values with them ([2, 7, 1.5]); the exact
/// softmax gives the first output row of the trace. `None` for a trace
/// without a first row.
pub fn rounded_note(t: &crate::attention::Trace, lang: Lang) -> Option<String> {
    use crate::lesson::format::rounded;
    let head = t.heads.first()?;
    if head.weights.nrows() == 0 || t.output.nrows() == 0 {
        return None;
    }
    let sep = S::ListSep.t(lang);
    let list = |xs: &mut dyn Iterator<Item = f64>, sep: &str| {
        xs.map(|v| rounded(v, 4)).collect::<Vec<_>>().join(sep)
    };
    let exact: Vec<f64> = head.weights.row(0).iter().copied().collect();
    let halves: Vec<f64> = exact.iter().map(|w| (w * 2.0).round() / 2.0).collect();
    let by_halves = (0..head.v.ncols()).map(|c| {
        halves
            .iter()
            .enumerate()
            .map(|(j, w)| w * head.v[(j, c)])
            .sum::<f64>()
    });
    Some(fill(
        S::NoteRounded.t(lang),
        &[
            &list(&mut halves.iter().copied(), sep),
            &list(&mut exact.iter().copied(), sep),
            &list(&mut by_halves.into_iter(), ", "),
            &list(&mut t.output.row(0).iter().copied(), ", "),
        ],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_004_rounding_is_told_with_the_engine_numbers() {
        let t = crate::attention::compute(&crate::lesson::presets::notes_004()).unwrap();
        assert_eq!(
            rounded_note(&t, Lang::En).unwrap(),
            "To keep the arithmetic easy, the note approximates the first row of weights as \
0, 0.5, 0.5 (exactly 0.0634, 0.4683, 0.4683) and gets [2, 7, 1.5] for the first output; \
here the exact softmax gives [1.9366, 6.6831, 1.5951]."
        );
        let zh = rounded_note(&t, Lang::Zh).unwrap();
        assert!(
            zh.contains("0、0.5、0.5（精确值是 0.0634、0.4683、0.4683）")
                && zh.contains("[2, 7, 1.5]")
                && zh.contains("[1.9366, 6.6831, 1.5951]"),
            "{zh}"
        );
    }

    #[test]
    fn every_key_has_both_languages() {
        for key in S::ALL {
            assert!(
                !key.t(Lang::Zh).trim().is_empty(),
                "{key:?} has no Chinese text"
            );
            assert!(
                !key.t(Lang::En).trim().is_empty(),
                "{key:?} has no English text"
            );
        }
    }

    #[test]
    fn chinese_text_is_chinese_where_it_is_prose() {
        // A Chinese entry that equals its English one must be a symbol (W_Q).
        for key in S::ALL {
            let (zh, en) = (key.t(Lang::Zh), key.t(Lang::En));
            if zh == en {
                assert!(zh.len() <= 4, "{key:?} looks untranslated: {zh}");
            }
        }
    }

    /// Numbers a sentence may state in the table itself, by key: constants
    /// of the formulas (a softmax row sums to 1, e^{−∞} = 0), limits of an
    /// input, indices that name a head or a row, sizes fixed by a figure's
    /// code, and facts of the notes (note 004's rounded weights and its
    /// [2, 7, 1.5]). Anything measured on the figure (a score, a weight, an
    /// output, a length) must be a `{n}` placeholder filled from the values
    /// on screen: a number typed here goes stale the moment the reader
    /// edits, and a wrong number teaches as surely as a wrong word.
    const NUMBERS: &[(S, &[&str])] = &[
        (S::NotesIntro, &["0/1"]),
        (S::CapWeights, &["1"]),
        (S::CapWeightsCol, &["1"]),
        (S::CapInputOneHot, &["1"]),
        (S::CapInputOneHotCol, &["1"]),
        (S::LinkNotBase64, &["base64"]),
        (S::LinkNotUtf8, &["UTF-8"]),
        (S::AboutTwoHeads, &["1", "2"]),
        (S::PresetWide, &["8", "64", "512"]),
        (
            S::AboutWide,
            &["512", "8", "64", "16", "N(0, 1)", "N(0, 1/d_model)"],
        ),
        (S::AboutNotes004, &["3", "4", "4×3"]),
        (S::AboutISawASaw, &["2", "4"]),
        (S::AboutUniform, &["0", "1/n"]),
        (S::LabScalingLead, &["0", "1"]),
        (S::LabScalingQuestion, &["4", "256", "8"]),
        (S::LabScalingExplain, &["0", "1"]),
        (S::LabScalingNumbers, &["100"]),
        (S::LabDk, &["1–512"]),
        (S::LabBadDk, &["1", "512"]),
        (S::LabBadSeed, &["0"]),
        (S::LabCurveTitle, &["8"]),
        (S::LabTableCaption, &["8", "100"]),
        (S::LabScoringLead, &["1"]),
        (S::LabPeMapLabel, &["32"]),
        (S::LabPeMapCaption, &["−1", "0", "+1"]),
        (S::LabMasksZero, &["0"]),
        (S::LabMasksExplain, &["0", "1"]),
        (S::LabMasksExplainOpen, &["0", "1"]),
        (S::LabGraphTooBig, &["16"]),
        (S::LabWeightsNoMask, &["1"]),
        (S::LabWeightsMasked, &["1"]),
        (S::LabDropoutLead, &["1/(1−p)"]),
        (S::LabDropoutQuestion, &["1"]),
        (S::LabDropoutNotAlways, &["1"]),
        (S::LabDropoutExplain, &["1/(1−p)", "0", "1"]),
        (S::LabDropoutExplainZero, &["1/(1−p)", "1"]),
        (S::LabBadRate, &["0", "0.9"]),
        (S::LabWhyNotOne, &["1/(1−p)", "0", "1"]),
        (S::LabInferenceNote, &["1"]),
        (S::LabCostExplain, &["4"]),
        (S::LabLinear, &["1"]),
        (S::LabPlotCaption, &["1", "4096"]),
        (S::LabCostHonest, &["0"]),
        (S::LabLinearHow, &["1"]),
    ];

    /// `text` without what may always hold digits: `{n}` placeholders, the
    /// notes' numbers (note 004, §6.1–6.3, 第 8 节) and the speeds (0.5×).
    fn without_references(text: &str) -> String {
        let mut t = text.to_string();
        for k in 1..=9 {
            t = t.replace(&format!("{{{k}}}"), "");
        }
        for note in ["000", "001", "004"] {
            for word in ["笔记 ", "note ", "Note ", "notes ", "Notes "] {
                t = t.replace(&format!("{word}{note}"), "");
            }
        }
        for speed in ["0.5×", "1.5×", "1×"] {
            t = t.replace(speed, "");
        }
        // § followed by a section (6.1–6.3); 第 … 节 around one.
        let mut out = String::new();
        let mut chars = t.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '§' || c == '第' {
                let mut section = String::new();
                while let Some(&d) = chars.peek() {
                    if d.is_ascii_digit() || matches!(d, '.' | '–' | ' ') {
                        section.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                let is_section = c == '§' || chars.peek() == Some(&'节');
                if is_section && section.chars().any(|d| d.is_ascii_digit()) {
                    if c == '第' {
                        chars.next();
                    }
                    continue;
                }
                out.push(c);
                out.push_str(&section);
                continue;
            }
            out.push(c);
        }
        out
    }

    /// Every digit in the table is a reference, a placeholder, or in the
    /// list above; every listed number is still used (a stale entry would
    /// let a typed number back in).
    #[test]
    fn numbers_in_sentences_come_from_the_figure() {
        for key in S::ALL {
            let allowed: &[&str] = NUMBERS
                .iter()
                .find(|(k, _)| k == key)
                .map_or(&[], |(_, n)| n);
            for lang in [Lang::Zh, Lang::En] {
                let mut t = without_references(key.t(lang));
                // Longest first, so "0.5" is not read as "0" and "5".
                let mut sorted = allowed.to_vec();
                sorted.sort_by_key(|a| std::cmp::Reverse(a.len()));
                for a in sorted {
                    t = t.replace(a, "");
                }
                assert!(
                    !t.chars().any(|c| c.is_ascii_digit()),
                    "{key:?} ({lang:?}) types a number; fill it from the figure with {{n}} \
                     (or, if it is a constant, list it with its reason): {}",
                    key.t(lang)
                );
            }
            for a in allowed {
                assert!(
                    [Lang::Zh, Lang::En]
                        .iter()
                        .any(|&l| without_references(key.t(l)).contains(a)),
                    "{key:?}: {a} is listed but no longer said"
                );
            }
        }
    }

    #[test]
    fn placeholders_are_filled_in_order() {
        assert_eq!(
            fill("q·k¹ = {1}, q·k² = {2}", &["2.5", "4"]),
            "q·k¹ = 2.5, q·k² = 4"
        );
        assert_eq!(
            fill("{2} then {1}, {1} again", &["a", "b"]),
            "b then a, a again"
        );
        // Not a placeholder: kept as written.
        assert_eq!(fill("q^{i,r} and {3}", &["x"]), "q^{i,r} and {3}");
        assert_eq!(fill("{", &[]), "{");
        // Every placeholder a sentence uses is one its caller fills: a
        // template's highest {n} is at most 9, and none is skipped.
        for key in S::ALL {
            for lang in [Lang::Zh, Lang::En] {
                let t = key.t(lang);
                let used: Vec<usize> = (1..=9)
                    .filter(|k| t.contains(&format!("{{{k}}}")))
                    .collect();
                if let Some(&max) = used.last() {
                    assert_eq!(
                        used,
                        (1..=max).collect::<Vec<_>>(),
                        "{key:?} skips a placeholder"
                    );
                }
            }
        }
    }

    #[test]
    fn language_codes() {
        assert_eq!(Lang::parse("zh"), Some(Lang::Zh));
        assert_eq!(Lang::parse("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::parse("EN-us"), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
        assert_eq!(Lang::parse(""), None);
        assert_eq!(Lang::from_browser("zh-TW"), Lang::Zh);
        assert_eq!(Lang::from_browser("de-DE"), Lang::En);
        assert_eq!(Lang::Zh.other(), Lang::En);
    }
}

// --- the walkthrough's captions ---------------------------------------------

use crate::lesson::captions::{Caption, Proj, StepCaption};
use crate::lesson::names::Convention;
use crate::lesson::timeline::{subscript, sup};

/// One sentence for a walkthrough step, with its live numbers and the
/// page's token labels (`tokens`), in `lang`. Chinese sentences use
/// full-width punctuation and the notes' own words.
pub fn caption_text(sc: &StepCaption, tokens: &[String], lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let tok = |i: usize| tokens.get(i).cloned().unwrap_or_default();
    // q¹（input 1） / q¹ (input 1)
    let named = |sym: &str, i: usize| {
        if zh {
            format!("{sym}{}（{}）", sup(i + 1), tok(i))
        } else {
            format!("{sym}{} ({})", sup(i + 1), tok(i))
        }
    };
    let num = crate::lesson::format::short;
    let head = match sc.head {
        Some((r, _)) if zh => format!("第 {} 个头：", r + 1),
        Some((r, _)) => format!("Head {}: ", r + 1),
        None => String::new(),
    };
    let row = |conv: Convention| conv == Convention::Row;
    let body = match sc.caption {
        Caption::Inputs { pe, conv } => {
            use crate::attention::Positional as P;
            let x = crate::lesson::captions::projected(conv, P::OneHot);
            match (zh, pe) {
                (true, P::None) => "输入 X：每个位置一个向量。".to_string(),
                (true, P::Sinusoidal) => "输入 X 加上位置编码 PE：每个位置一个向量，并带上了它的位置。".into(),
                (true, P::OneHot) => format!("输入 X 后面拼接独热位置向量 E：每个 aⁱ 后面接上 eⁱ（第 i 位为 1，其余为 0），投影看到的是 {x}。"),
                (false, P::None) => "The inputs X: one vector per position.".into(),
                (false, P::Sinusoidal) => "The inputs X plus the positional encoding PE: one vector per position, now carrying its place.".into(),
                (false, P::OneHot) => format!("The inputs X with the one-hot positions E concatenated: each aⁱ is followed by eⁱ (1 at place i, 0 elsewhere), so the projections see {x}."),
            }
        }
        Caption::Project { m, conv, pe } => {
            let (big, small) = match m {
                Proj::Q => ("Q", "q"),
                Proj::K => ("K", "k"),
                Proj::V => ("V", "v"),
            };
            let x = crate::lesson::captions::projected(conv, pe);
            let product = if row(conv) {
                format!("{x}·W_{big}")
            } else {
                format!("W^{small} {x}")
            };
            let meaning = match (m, zh) {
                (Proj::Q, true) => "我在找什么",
                (Proj::K, true) => "我有什么特征可以被匹配",
                (Proj::V, true) => "被关注时我提供什么",
                (Proj::Q, false) => "what am I looking for",
                (Proj::K, false) => "what features of mine can be matched",
                (Proj::V, false) => "what do I give when attended to",
            };
            let each = if row(conv) {
                if zh { "每一行" } else { "every row" }
            } else if zh {
                "每一列"
            } else {
                "every column"
            };
            if zh {
                format!("{big} = {product}：{each}是一个位置的 {small}ⁱ（{meaning}？）。")
            } else {
                format!("{big} = {product}: {each} is one position's {small}ⁱ ({meaning}?).")
            }
        }
        Caption::Dot { i, j, conv, value } => {
            let pair = if row(conv) {
                format!("q{}·k{}", sup(i + 1), sup(j + 1))
            } else {
                format!("(k{})ᵀq{}", sup(j + 1), sup(i + 1))
            };
            let a = format!("α{},{}", subscript(i + 1), subscript(j + 1));
            if zh {
                format!("{} 与 {} 对应分量相乘再相加：{a} = {pair} = {}。", named("q", i), named("k", j), num(value))
            } else {
                format!("{} and {}, entry by entry, multiplied and added: {a} = {pair} = {}.", named("q", i), named("k", j), num(value))
            }
        }
        Caption::ScoresRow { i, conv } => match (zh, row(conv)) {
            (true, true) => format!("{} 与每个键做点积：分数矩阵 QKᵀ 的第 {} 行。", named("q", i), i + 1),
            (true, false) => format!("{} 与每个键做点积：分数矩阵 KᵀQ 的第 {} 列。", named("q", i), i + 1),
            (false, true) => format!("{} dotted with every key: row {} of the score matrix QKᵀ.", named("q", i), i + 1),
            (false, false) => format!("{} dotted with every key: column {} of the score matrix KᵀQ.", named("q", i), i + 1),
        },
        Caption::ScoresAll { conv } => match (zh, row(conv)) {
            (true, true) => "所有查询与所有键的点积：分数矩阵 QKᵀ，第 i 行是 qⁱ 的分数。".into(),
            (true, false) => "所有查询与所有键的点积：分数矩阵 KᵀQ，第 i 列是 qⁱ 的分数。".into(),
            (false, true) => "Every query dotted with every key: the score matrix QKᵀ, row i holding qⁱ's scores.".into(),
            (false, false) => "Every query dotted with every key: the score matrix KᵀQ, column i holding qⁱ's scores.".into(),
        },
        Caption::Scale { i, d_k, divisor } => {
            let by = format!("√d_k = √{d_k} = {}", num(divisor));
            match (zh, i) {
                (true, Some(i)) => format!("{} 的分数都除以 {by}，让 softmax 不至于过早饱和。", named("q", i)),
                (true, None) => format!("所有分数都除以 {by}，让 softmax 不至于过早饱和。"),
                (false, Some(i)) => format!("The scores of {} divided by {by}, so softmax does not saturate.", named("q", i)),
                (false, None) => format!("Every score divided by {by}, so softmax does not saturate."),
            }
        }
        Caption::Mask { i, hidden } => match (zh, i) {
            (true, Some(i)) => format!("屏蔽：{} 不能看的 {hidden} 个键，其分数被设为 −∞，softmax 之后权重为 0。", named("q", i)),
            (true, None) => format!("屏蔽：不能看的键共 {hidden} 处，其分数被设为 −∞，softmax 之后权重为 0。"),
            (false, Some(i)) => format!("The mask: the scores of the {hidden} key(s) {} may not see become −∞, so their weights will be 0.", named("q", i)),
            (false, None) => format!("The mask: {hidden} hidden score(s) become −∞, so their weights will be 0."),
        },
        Caption::Softmax { i, conv, masked, scaled } => {
            let mut s = match (zh, i, row(conv)) {
                (true, Some(i), _) => format!("对 {} 的分数做 softmax：先减去最大值再取指数，再除以它们的和；权重非负，和为 1。", named("q", i)),
                (true, None, true) => "对每一行做 softmax：权重非负，每行和为 1。".into(),
                (true, None, false) => "对每一列做 softmax（softmax_col）：权重非负，每列和为 1。".into(),
                (false, Some(i), _) => format!("Softmax over the scores of {}: subtract the largest, exponentiate, divide by the sum; the weights are non-negative and sum to 1.", named("q", i)),
                (false, None, true) => "Softmax of every row: non-negative weights, each row summing to 1.".into(),
                (false, None, false) => "Softmax down every column (softmax_col): non-negative weights, each column summing to 1.".into(),
            };
            if masked {
                s.push_str(if zh { "被屏蔽的键权重为 0。" } else { " Hidden keys get weight 0." });
            }
            if !scaled {
                s.push_str(if zh { "（没有缩放：分数直接进入 softmax。）" } else { " (No scaling: the scores go into softmax as they are.)" });
            }
            s
        }
        Caption::WeightedSum { i: Some(i), head, .. } => {
            let b = crate::lesson::captions::output_name(i, head);
            if zh {
                format!("每个 vʲ 乘以它的权重 α′{},ⱼ，再相加，得到 {b}（{}）。", subscript(i + 1), tok(i))
            } else {
                format!("Each vʲ times its weight α′{},ⱼ, added up: {b} ({}).", subscript(i + 1), tok(i))
            }
        }
        Caption::WeightedSum { i: None, conv, head } => {
            let b = head.map_or("B".to_string(), |r| format!("B{}", sup(r + 1)));
            match (zh, row(conv)) {
                (true, true) => format!("权重乘以 V：{b} = A·V，每一行是一个位置融合了上下文的输出。"),
                (true, false) => format!("V 乘以权重：{b} = V·A，每一列是一个位置融合了上下文的输出。"),
                (false, true) => format!("The weights times V: {b} = A·V, each row one position's context-aware output."),
                (false, false) => format!("V times the weights: {b} = V·A, each column one position's context-aware output."),
            }
        }
        Caption::MatrixForm { conv, scaled, .. } => {
            let f = match (row(conv), scaled) {
                (true, true) => "softmax(QKᵀ/√d_k)V",
                (true, false) => "softmax(QKᵀ)V",
                (false, true) => "V·softmax_col(KᵀQ/√d_k)",
                (false, false) => "V·softmax_col(KᵀQ)",
            };
            if zh {
                format!("同样的计算写成矩阵：{f}，一次算完所有位置。")
            } else {
                format!("The same computation as matrices: {f}, every position at once.")
            }
        }
        Caption::Concat { heads, conv } => match (zh, row(conv)) {
            (true, true) => format!("把 {heads} 个头的输出并排拼接（不是取平均）：每一行变长为 h·d_v。"),
            (true, false) => format!("把 {heads} 个头的输出上下拼接（不是取平均）：每一列变长为 h·d_v。"),
            (false, true) => format!("The {heads} heads' outputs placed side by side (not averaged): each row becomes h·d_v long."),
            (false, false) => format!("The {heads} heads' outputs stacked (not averaged): each column becomes h·d_v long."),
        },
        Caption::Output { heads, w_o, conv } => {
            let wo = if row(conv) { "W_O" } else { "W^O" };
            match (zh, w_o, heads > 1, row(conv)) {
                (true, true, _, true) => "拼接结果乘以 W_O，把各头的信息混合起来：B = concat·W_O，每一行是一个位置最终的 bⁱ。".into(),
                (true, true, _, false) => "W^O 乘以拼接结果，把各头的信息混合起来：B = W^O concat，每一列是一个位置最终的 bⁱ。".into(),
                (true, false, true, _) => format!("没有 {wo}：拼接结果就是最终输出 B。"),
                (true, false, false, _) => format!("只有一个头、没有 {wo}：这个头的输出 B 就是最终输出。"),
                (false, true, _, true) => "The concatenation times W_O mixes the heads: B = concat·W_O, each row one position's final bⁱ.".into(),
                (false, true, _, false) => "W^O times the concatenation mixes the heads: B = W^O concat, each column one position's final bⁱ.".into(),
                (false, false, true, _) => format!("No {wo}: the concatenation is the output B."),
                (false, false, false, _) => format!("One head and no {wo}: the head's output B is the output."),
            }
        }
    };
    format!("{head}{body}")
}

#[cfg(test)]
mod caption_tests {
    use super::*;
    use crate::lesson::captions::caption;

    /// Symbol names that may appear in Chinese text; any other Latin word is
    /// an untranslated word.
    const SYMBOLS: &[&str] = &[
        "X",
        "PE",
        "E",
        "e",
        "Q",
        "K",
        "V",
        "W_Q",
        "W_K",
        "W_V",
        "W_O",
        "W",
        "O",
        "q",
        "k",
        "v",
        "b",
        "a",
        "softmax",
        "softmax_col",
        "d_k",
        "d_v",
        "h",
        "i",
        "j",
        "QKᵀ",
        "KᵀQ",
        "A",
        "B",
        "V·A",
        "A·V",
        "concat",
        "QK",
    ];

    /// The Latin words of `s` (runs of ASCII letters and `_`).
    fn latin_words(s: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = String::new();
        for c in s.chars() {
            if c.is_ascii_alphabetic() || c == '_' {
                cur.push(c);
            } else if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        }
        if !cur.is_empty() {
            out.push(cur);
        }
        out
    }

    fn all_captions() -> Vec<StepCaption> {
        let mut out = Vec::new();
        crate::lesson::captions::for_each_case(|step, t, conv, s| {
            out.push(caption(step, t, conv, s.w_o.is_some()))
        });
        out
    }

    /// The layout a caption is written for (captions that read the same in
    /// both, as the scaling and mask steps do, are checked as row).
    fn layout_of(c: &Caption) -> Convention {
        match *c {
            Caption::Inputs { conv, .. }
            | Caption::Project { conv, .. }
            | Caption::Dot { conv, .. }
            | Caption::ScoresRow { conv, .. }
            | Caption::ScoresAll { conv }
            | Caption::Softmax { conv, .. }
            | Caption::WeightedSum { conv, .. }
            | Caption::MatrixForm { conv, .. }
            | Caption::Concat { conv, .. }
            | Caption::Output { conv, .. } => conv,
            Caption::Scale { .. } | Caption::Mask { .. } => Convention::Row,
        }
    }

    /// Every symbol a caption or its formula writes, in either language and
    /// layout, is one of the notation table's (`crate::lesson::notation`):
    /// a word that carries an index or a sub/superscript must name a symbol
    /// of that layout (so never x¹, oⁱ, H or Y, and W^q only in columns).
    #[test]
    fn captions_use_only_the_notation_table() {
        use crate::lesson::notation::is_symbol;
        let tokens: Vec<String> = (1..=3).map(|i| format!("t{i}")).collect();
        let indexed = |w: &str| {
            w.chars()
                .any(|c| "⁰¹²³⁴⁵⁶⁷⁸⁹ⁱʲʳʰ₀₁₂₃₄₅₆₇₈₉ᵢⱼ^_ᵀ′".contains(c))
                || ["H", "Y", "O"].contains(&w)
        };
        for sc in all_captions() {
            let conv = layout_of(&sc.caption);
            let formula = crate::lesson::captions::plain_formula(&sc.caption);
            for lang in [Lang::Zh, Lang::En] {
                let text = caption_text(&sc, &tokens, lang);
                for source in [&text, &formula] {
                    let words = source.split(|c: char| {
                        c.is_whitespace()
                            || "，。：；（）()[]|=+·/√?？,:;.".contains(c)
                            || (c as u32) >= 0x4E00
                    });
                    for w in words.filter(|w| indexed(w) && w.chars().any(char::is_alphabetic)) {
                        // Products of symbols written together, and Σ's index.
                        if ["QKᵀ", "KᵀQ", "Σ_j", "A·V", "V·A"].contains(&w)
                            || w.starts_with("softmax")
                        {
                            continue;
                        }
                        let w = w.strip_suffix("'s").unwrap_or(w).trim_matches(['ᵀ', '\'']);
                        if crate::lesson::notation::base(w).is_none() {
                            continue; // an index alone, after a split at its comma
                        }
                        assert!(is_symbol(w, conv), "{w:?} ({conv:?}, {lang:?}) in {source}");
                    }
                }
            }
        }
    }

    #[test]
    fn chinese_captions_have_no_english_words() {
        // Chinese token labels, as the Chinese presets have.
        let tokens: Vec<String> = (1..=3).map(|i| format!("输入 {i}")).collect();
        for sc in all_captions() {
            let zh = caption_text(&sc, &tokens, Lang::Zh);
            for w in latin_words(&zh) {
                assert!(SYMBOLS.contains(&w.as_str()), "{w:?} in {zh}");
            }
            // Full-width punctuation in Chinese sentences.
            for bad in [", ", ": ", "; "] {
                assert!(!zh.contains(bad), "{bad:?} in {zh}");
            }
            // ASCII brackets only inside formulas, never around Chinese.
            let cjk = |c: char| (c as u32) >= 0x4E00;
            let chars: Vec<char> = zh.chars().collect();
            for w in chars.windows(2) {
                assert!(
                    !(w[0] == '(' && cjk(w[1]) || cjk(w[0]) && w[1] == ')'),
                    "{zh}"
                );
            }
            assert!(zh.ends_with('。') || zh.ends_with('）'), "{zh}");
            assert!(!zh.contains("为正") && !zh.contains("掩码"), "{zh}");
        }
    }

    #[test]
    fn captions_follow_the_convention_scaling_and_w_o() {
        let tokens: Vec<String> = (1..=3).map(|i| format!("t{i}")).collect();
        for sc in all_captions() {
            for lang in [Lang::Zh, Lang::En] {
                let text = caption_text(&sc, &tokens, lang);
                let formula = crate::lesson::captions::plain_formula(&sc.caption);
                let ctx = format!("{sc:?}: {text}");
                match sc.caption {
                    Caption::ScoresAll { conv } | Caption::ScoresRow { conv, .. } => {
                        let (yes, no) = if conv == Convention::Row {
                            ("QKᵀ", "KᵀQ")
                        } else {
                            ("KᵀQ", "QKᵀ")
                        };
                        assert!(text.contains(yes) && !text.contains(no), "{ctx}");
                    }
                    Caption::Softmax {
                        scaled, conv, i, ..
                    } => {
                        assert!(!text.contains('√'), "{ctx}");
                        if lang == Lang::En {
                            assert!(
                                text.contains("non-negative") && !text.contains("positive weights"),
                                "{ctx}"
                            );
                            if i.is_none() {
                                assert_eq!(
                                    text.contains("column"),
                                    conv == Convention::Col,
                                    "{ctx}"
                                );
                            }
                            assert_eq!(text.contains("No scaling"), !scaled, "{ctx}");
                        } else {
                            assert!(text.contains("非负"), "{ctx}");
                        }
                    }
                    Caption::MatrixForm { scaled, .. } => {
                        assert_eq!(text.contains('√'), scaled, "{ctx}");
                    }
                    Caption::Mask { .. } => {
                        // The score is set to −∞, never "the key".
                        if lang == Lang::En {
                            assert!(
                                text.contains("scores") || text.contains("score(s)"),
                                "{ctx}"
                            );
                            assert!(!text.contains("keys become"), "{ctx}");
                        } else {
                            assert!(
                                text.contains("屏蔽") && text.contains("分数被设为 −∞"),
                                "{ctx}"
                            );
                        }
                    }
                    Caption::Output { w_o, heads, .. } => {
                        if w_o {
                            assert!(text.contains("W_O") || text.contains("W^O"), "{ctx}");
                        } else {
                            // W_O / W^O only to say there is none.
                            assert!(!text.contains("mixes") && !text.contains("混合"), "{ctx}");
                            assert!(
                                text.to_lowercase().contains("no w") || text.contains("没有 W"),
                                "{ctx}"
                            );
                        }
                        if heads == 1 && !w_o {
                            assert!(!text.contains("concat") && !text.contains("拼接"), "{ctx}");
                        }
                    }
                    _ => {}
                }
                // The sentence names the same formula the step shows.
                if let Caption::Project { .. } | Caption::WeightedSum { i: None, .. } = sc.caption {
                    let key = formula.split(" = ").last().unwrap_or_default().to_string();
                    assert!(text.contains(&key), "{ctx} / {formula}");
                }
            }
        }
    }
}

// --- why a scenario or edit was refused --------------------------------------

/// A too-long `#s=` link: its length and the limit, in `lang`.
pub fn too_long_text(limit: usize, got: usize, lang: Lang) -> String {
    let (got, kb, limit) = (grouped(got), limit / 1024, grouped(limit));
    match lang {
        Lang::Zh => format!("链接有 {got} 个字符，超过了 {limit} 个字符（{kb} KB）的上限"),
        Lang::En => format!("the link has {got} characters, over the limit of {limit} ({kb} KB)"),
    }
}

use crate::attention::json::JsonProblem;
use crate::attention::{grouped, DimName, Expected, Reason, ScenarioError, Stage};

/// `e` in `lang`: the field as the format writes it, then the reason. Every
/// reason is typed, so the Chinese page shows no English reason.
pub fn error_text(e: &ScenarioError, lang: Lang) -> String {
    let reason = match (lang, &e.reason) {
        (Lang::En, r) => r.to_string(),
        (Lang::Zh, r) => reason_zh(r),
    };
    match (e.field.is_empty(), lang) {
        (true, _) => reason,
        (false, Lang::Zh) => format!("{}：{reason}", e.field),
        (false, Lang::En) => format!("{}: {reason}", e.field),
    }
}

fn reason_zh(r: &Reason) -> String {
    match r {
        Reason::Shape { want, got } => {
            format!("应为 {}×{}，实际是 {}×{}", want.0, want.1, got.0, got.1)
        }
        Reason::NotFinite(v) => format!("{v} 不是有限的数"),
        Reason::Dim { what, max, got } => {
            let what = match what {
                DimName::Rows => "行数（词元个数）",
                DimName::Width => "每行的宽度 d_model",
                DimName::Heads => "头数",
                DimName::DK => "d_k（列数）",
                DimName::DV => "d_v（列数）",
                DimName::OutWidth => "输出宽度（列数）",
                DimName::Layers => "层数",
            };
            format!("{what}必须在 1 到 {max} 之间，实际是 {got}")
        }
        Reason::Range { lo, hi, got } => format!("必须在 {lo} 到 {hi} 之间，实际是 {got}"),
        Reason::Format(got) => format!("应为 \"{}\"，实际是 \"{got}\"", crate::attention::FORMAT),
        Reason::TokenCount { want, got } => {
            format!("应有 {want} 个标签（x 的每行一个），实际有 {got} 个")
        }
        Reason::TokenTooLong { max, got } => format!("最多 {max} 个字符，实际有 {got} 个"),
        Reason::PaddingTooLong { n, got } => format!("真实的键最多 n = {n} 个，实际是 {got}"),
        Reason::MaskRows { want, got } => format!("应有 {want} 行，实际有 {got} 行"),
        Reason::MaskRowLength { want, got } => {
            format!("应有 {want} 个 true/false，实际有 {got} 个")
        }
        Reason::OneHotRows {
            d_model,
            n,
            cols,
            got,
        } => format!(
            "应为 (d_model + n)×{cols} = ({d_model} + {n})×{cols} = {}×{cols}（独热位置向量为每个位置多加一行），实际是 {}×{}",
            d_model + n,
            got.0,
            got.1
        ),
        Reason::Overflow { row, what } => {
            let what = match what {
                Stage::Input => "X + PE",
                Stage::Q => "Q",
                Stage::K => "K",
                Stage::V => "V",
                Stage::Scores => "分数 QKᵀ",
                Stage::HeadOutput => "这个头的输出",
                Stage::Output => "concat·W_O",
            };
            format!("数字太大：{what} 的第 {row} 行超出了 f64 的范围")
        }
        Reason::NoSuchMatrix => "没有这个矩阵".into(),
        Reason::OutsideMatrix { rows, cols } => format!("超出了这个 {rows}×{cols} 的矩阵"),
        Reason::NoSuchPosition => "没有这个位置".into(),
        Reason::TooLarge { limit, got } => format!(
            "文件有 {} 字节，超过了 {} 字节（{} MB）的上限",
            grouped(*got),
            grouped(*limit),
            limit / (1024 * 1024)
        ),
        Reason::Unreadable => "无法读取这个文件".into(),
        Reason::ResidualWidth { input, output } => {
            format!("要把输入加回来，注意力输出必须和输入一样宽（{input} 列），实际是 {output} 列")
        }
        Reason::Json {
            line,
            column,
            problem,
        } => format!("不是有效的 JSON：第 {line} 行第 {column} 列，{}", json_zh(problem)),
        Reason::Expected { what, got } => {
            let what = match what {
                Expected::Object => "一个对象 {…}",
                Expected::Rows => "由行组成的数组",
                Expected::Row => "一行（由数字组成的数组）",
                Expected::Number => "一个数字",
                Expected::Bool => "true 或 false",
                Expected::Labels => "由标签组成的数组",
                Expected::Label => "一个字符串",
                Expected::Heads => "由头组成的数组",
                Expected::Layers => "由层组成的数组",
            };
            format!("应为{what}，实际是 {got}")
        }
        Reason::UnknownField { name, known } => {
            format!("没有 “{name}” 这个字段，可用的字段是 {}", known.join("、"))
        }
        Reason::MissingField(key) => format!("缺少字段 “{key}”"),
        Reason::NumberOutOfRange => "数字超出了范围（不是有限的 f64）".into(),
        Reason::Ragged { row, len, first } => format!(
            "第 {row} 行有 {len} 个数，第 0 行有 {first} 个；每行的长度必须相同"
        ),
        Reason::MaskForm(got) => format!(
            "应为 \"none\"、\"causal\"、{{\"padding\": L}}、{{\"window\": W}} 或 {{\"custom\": n×n 个 true/false}}，实际是 {got}"
        ),
        Reason::WholeNumber(got) => format!("必须是 ≥ 0 的整数，实际是 {got}"),
        Reason::CustomMask => "custom 必须是由 true/false 组成的二维数组".into(),
        Reason::PositionalForm(got) => {
            format!("应为 \"none\"、\"sinusoidal\" 或 \"onehot\"，实际是 {got}")
        }
    }
}

fn json_zh(p: &JsonProblem) -> String {
    match p {
        JsonProblem::Eof => "内容意外结束".into(),
        JsonProblem::Trailing => "值的后面还有多余的字符".into(),
        JsonProblem::ExpectedValue => "这里应有一个值".into(),
        JsonProblem::TooDeep => "嵌套层数太深".into(),
        JsonProblem::TrailingComma => "最后一项后面多了逗号".into(),
        JsonProblem::ExpectedCommaOr(c) => format!("这里应有 “,” 或 “{c}”"),
        JsonProblem::ExpectedKey => "这里应有一个字符串形式的键".into(),
        JsonProblem::ExpectedColon => "这里应有 “:”".into(),
        JsonProblem::DuplicateKey(k) => format!("键 “{k}” 重复出现"),
        JsonProblem::ControlCharacter => "字符串中有控制字符（必须转义）".into(),
        JsonProblem::LoneSurrogate => "\\u 转义中有落单的代理项".into(),
        JsonProblem::InvalidEscape => "无效的转义".into(),
        JsonProblem::InvalidNumber => "无效的数字".into(),
    }
}

#[cfg(test)]
mod error_tests {
    use super::*;

    #[test]
    fn every_typed_reason_is_worded_in_chinese_without_english_words() {
        let reasons = [
            Reason::Shape {
                want: (4, 3),
                got: (4, 2),
            },
            Reason::NotFinite("inf".into()),
            Reason::Range {
                lo: 1,
                hi: 64,
                got: 65,
            },
            Reason::Format("attention-lab/9".into()),
            Reason::TokenCount { want: 3, got: 2 },
            Reason::TokenTooLong { max: 40, got: 41 },
            Reason::PaddingTooLong { n: 3, got: 4 },
            Reason::MaskRows { want: 3, got: 2 },
            Reason::MaskRowLength { want: 3, got: 2 },
            Reason::NoSuchMatrix,
            Reason::OutsideMatrix { rows: 3, cols: 4 },
            Reason::NoSuchPosition,
            Reason::TooLarge {
                limit: 2 * 1024 * 1024,
                got: 3_000_000,
            },
            Reason::Unreadable,
            Reason::ResidualWidth {
                input: 4,
                output: 3,
            },
            Reason::Expected {
                what: Expected::Object,
                got: "3".into(),
            },
            Reason::UnknownField {
                name: "w_x".into(),
                known: &["w_q", "w_k", "w_v"],
            },
            Reason::MissingField("heads"),
            Reason::NumberOutOfRange,
            Reason::Ragged {
                row: 1,
                len: 2,
                first: 3,
            },
            Reason::MaskForm("3".into()),
            Reason::WholeNumber("-1".into()),
            Reason::CustomMask,
            Reason::PositionalForm("3".into()),
            Reason::OneHotRows {
                d_model: 4,
                n: 3,
                cols: 2,
                got: (4, 2),
            },
        ];
        let dims = [
            DimName::Rows,
            DimName::Width,
            DimName::Heads,
            DimName::DK,
            DimName::DV,
            DimName::OutWidth,
            DimName::Layers,
        ]
        .map(|what| Reason::Dim {
            what,
            max: 64,
            got: 0,
        });
        let stages = [
            Stage::Input,
            Stage::Q,
            Stage::K,
            Stage::V,
            Stage::Scores,
            Stage::HeadOutput,
            Stage::Output,
        ]
        .map(|what| Reason::Overflow { row: 2, what });
        let expected = [
            Expected::Object,
            Expected::Rows,
            Expected::Row,
            Expected::Number,
            Expected::Bool,
            Expected::Labels,
            Expected::Label,
            Expected::Heads,
            Expected::Layers,
        ]
        .map(|what| Reason::Expected {
            what,
            got: "3".into(),
        });
        let json = [
            JsonProblem::Eof,
            JsonProblem::Trailing,
            JsonProblem::ExpectedValue,
            JsonProblem::TooDeep,
            JsonProblem::TrailingComma,
            JsonProblem::ExpectedCommaOr(']'),
            JsonProblem::ExpectedKey,
            JsonProblem::ExpectedColon,
            JsonProblem::DuplicateKey("x".into()),
            JsonProblem::ControlCharacter,
            JsonProblem::LoneSurrogate,
            JsonProblem::InvalidEscape,
            JsonProblem::InvalidNumber,
        ]
        .map(|problem| Reason::Json {
            line: 1,
            column: 2,
            problem,
        });
        let allowed = [
            "d_model",
            "d_k",
            "d_v",
            "n",
            "X",
            "PE",
            "Q",
            "K",
            "V",
            "QK",
            "concat",
            "W_O",
            "f",
            "x",
            "true",
            "false",
            "inf",
            "attention",
            "lab",
            "MB",
            // The format's own words, as a file writes them.
            "JSON",
            "u",
            "w_q",
            "w_k",
            "w_v",
            "w_x",
            "heads",
            "none",
            "causal",
            "padding",
            "window",
            "custom",
            "sinusoidal",
            "onehot",
            "L",
            "W",
        ];
        for r in reasons
            .iter()
            .chain(&dims)
            .chain(&stages)
            .chain(&expected)
            .chain(&json)
        {
            let e = ScenarioError::new("heads[1].w_k", r.clone());
            let (zh, en) = (error_text(&e, Lang::Zh), error_text(&e, Lang::En));
            assert_eq!(en, e.to_string(), "English is the format's own message");
            let body = zh
                .strip_prefix("heads[1].w_k：")
                .expect("the field, then a full-width colon");
            let words: Vec<&str> = body
                .split(|c: char| !(c.is_ascii_alphabetic() || c == '_'))
                .filter(|w| !w.is_empty())
                .collect();
            for w in &words {
                assert!(allowed.contains(w), "{w:?} in {zh}");
            }
        }
    }
}
