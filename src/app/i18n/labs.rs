//! The labs' chunk's texts: the seven labs (their titles, leads,
//! questions, answers and explanations, controls and captions).

use super::{strings, Lang};

strings! {
    LabText, LABS, super::BASE_L;
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
        "With a window mask of W = {1} and n = {2}, the last position sees the first after {3} stacked layer(s): information moves at most W places per layer.";
}
