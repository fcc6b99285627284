//! The page's texts: the walkthrough, the toolbar and controls, the
//! workbench, the heads and their heatmaps, embedding, saving and links.

use super::{strings, Lang};

strings! {
    PageText, PAGE, super::BASE_S;
    Title => "注意力实验室", "Attention Lab";
    HeadsHeading => "各头的注意力权重", "Attention weights of each head";
    HeadsIntro => "同一个输入，每个头用自己的 W_Q、W_K、W_V，所以得到自己的一组权重。所有头共用一个颜色刻度；点击一个头把它放大；把鼠标移到格子上（或聚焦后用方向键）可以看到分数、缩放后的分数和权重。",
        "The same input, but each head has its own W_Q, W_K and W_V, and so its own weights. All heads share one colour scale; click a head to enlarge it; hover a cell (or focus the map and use the arrow keys) to read its score, scaled score and weight.";
    ModelViewHeading => "所有层的所有头", "Every layer's heads (the model view)";
    ModelViewIntro => "每行是一层，每列是一个头，颜色刻度相同。把鼠标移到一个格子上（或聚焦后用方向键），每张图里同一个查询都会被框出来；点击一张图把它放大。",
        "One row per layer, one column per head, one colour scale. Hover a cell (or focus a map and use the arrow keys) to outline the same query in every map; click a map to enlarge it.";
    AxesQueriesDown => "每行是一个查询，每列是一个键。", "Rows are queries, columns are keys.";
    AxesKeysDown => "每行是一个键，每列是一个查询（按列的写法）。", "Rows are keys, columns are queries (the column layout).";
    NoDefinedRows => "每个查询的所有键都被屏蔽：这个头没有任何定义了的权重。", "Every key of every query is masked: this head has no defined weights.";
    Evenly => "（所有键一样多）", "(all keys evenly)";
    MeanEntropy => "平均熵", "mean entropy";
    Bits => "比特", "bits";
    IfEven => "均匀分布时为", "evenly spread:";
    LooksMost => "最关注", "looks most at";
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
    ProjectionsHeading => "投影矩阵（可学习参数）", "Projections (learned parameters)";
    QkvHeading => "Query、Key、Value", "Queries, keys, values";
    AttentionHeading => "注意力分数与权重", "Attention scores and weights";
    CombineHeading => "合并各头", "Combining the heads";
    LayerHeading => "第 {1} 层", "Layer {1}";
    LayersIntro => "自注意力可以一层叠一层（笔记 000 §3.2）：后一层读的是前一层的输出，每个位置已经混进了上下文。每层有自己的头和权重。",
        "Self-attention layers stack (note 000 §3.2): the next layer reads the previous layer's output, where every position is already mixed with context. Each layer has its own heads and weights.";
    LayerReads => "第 {1} 层读这个：上一层的输出（不可编辑，改上一层就会变）", "Layer {1} reads this: the previous layer's output (not editable: change the layer before it)";
    LayersCount => "{1} 层（以上 d_k、d_v、h 是第 {2} 层的）", "{1} layers (d_k, d_v and h above are layer {2}'s)";
    LayerInputTitle => "第 {1} 层的输入 X{2}", "Layer {1}'s input X{2}";
    LayerOutputTitle => "第 {1} 层的输出 O{2}", "Layer {1}'s output O{2}";
    CapLayerOutputResidual => "这一层的输出：它的输入加上注意力的输出（残差）", "This layer's output: its input plus its attention output (the residual)";
    CapLayerOutputPlain => "这一层的输出：注意力的输出", "This layer's output: its attention output";
    CapFinalOutput => "最后一层的输出", "The last layer's output";
    AddLayer => "添加一层", "Add a layer";
    RemoveLayer => "删除这一层", "Remove this layer";
    ResidualToggle => "把输入加回来（残差）", "Add the input back (residual)";
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
    UndefinedRowsAlert => "有查询行的所有键都被屏蔽，这些行的 softmax 没有定义（显示为 —）：",
        "Some query rows have every key masked; their softmax is undefined (shown as —): rows";
    ShowMatrix => "展开", "Show";
    HideMatrix => "收起", "Hide";
    CollapsedNote => "较大的中间矩阵默认收起。", "Large intermediate matrices start collapsed.";
    LangUnavailable => "另一种语言的文字没能下载，页面保持现在的语言。请检查网络后再试。", "The other language's words could not be downloaded, so the page stays in this one. Check the connection and try again.";
    BadLink => "分享链接无法打开，你的内容没有任何改动。原因：", "The shared link could not be opened; nothing of yours was changed. Reason:";
    PreviousKept => "链接打开了另一个场景，你之前的内容仍然保留着。", "A link opened another scenario; your previous work is kept.";
    BackToPrevious => "回到我之前的内容", "Back to my previous work";
    OtherTab => "另一个标签页保存了更新的内容，这里已换成它。", "Another tab saved newer work; it is shown here.";
    LabsFailed => "实验没能加载；上面的图和矩阵照常可用。", "The labs could not be loaded; the figures and matrices above still work.";
    TryAgain => "重新加载", "Try again";
    StorageFailed => "这个浏览器没有保存你的内容（存储已满或被禁用）；要保留它，请导出场景。",
        "This browser is not keeping your work (storage is full or blocked); export the scenario to keep it.";
    LinkNotBase64 => "链接中 #s= 之后的内容不是有效的 base64url 编码", "the text after #s= is not valid base64url";
    LinkNotUtf8 => "解码后的内容不是 UTF-8 文本", "the decoded bytes are not UTF-8 text";
    Dismiss => "关闭", "Dismiss";
    Row => "行", "row";
    Col => "列", "column";
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
    PresetInduction => "两层：归纳头（A B C D A → B）", "Two layers: an induction head (A B C D A → B)";
    AboutInduction => "手工设定的两层因果注意力（笔记 000 §3.2：后一层读前一层的输出）。第 {1} 层的头看前一个位置，把那个词写进每个位置自己的空维度；第 {2} 层的头用每个位置自己的词去找“前一个词和我相同”的位置，再读出那里的词。于是最后一个 A 找到第一个 A 后面的位置，读出 B。输入是每个词的独热向量，所以输出的前几列就是给每个词的票。",
        "Two causal layers set by hand (note 000 §3.2: the next layer reads the previous layer's output). Layer {1}'s head looks at the previous position and writes that token into spare dimensions of each position; layer {2}'s head uses each position's own token to find the positions whose previous token is the same, and reads the token there. So the last A finds the position after the first A and reads B. The inputs are one-hot tokens, so the first columns of the output are a vote for each token.";
    VoteLine => "最后一个位置（{1}）的输出投票给 {2}：", "The last position ({1}) votes for {2}:";
    PredictLayers => "预测：删掉第 {1} 层，最后一个 {2} 还会投票给 {3} 吗？", "Predict: with layer {1} removed, does the last {2} still vote for {3}?";
    PredictYes => "会", "Yes";
    PredictNo => "不会", "No";
    RevealLayers => "删掉第 {1} 层后，{2} 得 {3}，票数最高的是 {4}（{5}）。", "With layer {1} removed, {2} gets {3} and the largest vote is {4} ({5}).";
    RevealFlips => "第 {1} 层现在直接读输入：没有谁把前一个词写进每个位置，它的查询找不到匹配。需要两层才行。", "Layer {1} now reads the input directly: nothing has written each position's previous token into it, so its query finds no match. It takes both layers.";
    RevealStays => "在这些数字下，剩下的一层自己也能做到。", "With these numbers, the remaining layer manages on its own.";
    RightAnswer => "答对了。", "Right.";
    WrongAnswer => "不对。", "Not quite.";
    TryRemoving => "在下面的第 {1} 层点“删除这一层”亲眼看看（可以撤销）。", "Press \u{201c}Remove this layer\u{201d} under layer {1} below to see it (undo brings it back).";
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
    DerivationExact => "精确值", "Exact value";
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
    StageLayerOf => "第 {1} 层（共 {2} 层）", "Layer {1} of {2}";
    StageHandOver => "第 {1} 层 → 第 {2} 层", "Layer {1} → layer {2}";
    HandOverResidual => "第 {1} 层把输入加回来（残差）：它的输出 O{2} = X{2} + B{2}，是这一层的输入加上注意力的输出。",
        "Layer {1} adds its input back (the residual): its output O{2} = X{2} + B{2} is the layer's input plus its attention output.";
    HandOverBecomes => "第 {1} 层的输出 O{2} 成为第 {3} 层的输入 X{4}：下一层读的是每个位置已经混进上下文的表示（笔记 000 §3.2）。",
        "Layer {1}'s output O{2} becomes layer {3}'s input X{4}: the next layer reads positions already mixed with context (note 000 §3.2).";
    Restart => "从头开始", "Restart";
    StepBack => "上一步（←）", "Step back (←)";
    StepForward => "下一步（→）", "Step forward (→)";
    PlayPauseKey => "播放 / 暂停（空格键）", "Play / pause (Space)";
    StepLabel => "步骤", "Step";
    GranularityLabel => "粒度", "Granularity";
    GranMatrix => "整个矩阵", "Whole matrices";
    GranRow => "逐个查询", "One query at a time";
    GranDot => "每个点积", "Every dot product";
    CopyEmbed => "复制嵌入代码", "Copy embed code";
    OpenFullPage => "在注意力实验室中打开 ↗", "Open in Attention Lab ↗";
    ViewGeometry => "点积的几何意义", "dot product geometry";
    ViewScoring => "三种打分方式", "three scoring functions";
    ViewPositions => "实验：位置编码", "Lab: positions";
    ViewMasks => "实验：掩码编辑器", "Lab: mask editor";
    ViewDropout => "实验：执行顺序与 dropout", "Lab: order and dropout";
    ViewCost => "实验：计算量与更省的做法", "Lab: cost and cheaper variants";
    ViewScaling => "为什么除以 √d_k", "why ÷√d_k";
    Footer => "所有计算都在你的浏览器中完成，不会发送任何数据。", "Everything is computed in your browser; nothing is sent anywhere.";
}
