//! The training lab's texts: [`TrainText`], in the training lab's chunk
//! (`src/app/train_lab/`: its controls, readouts, questions and the
//! decoding readout), and [`TrainPageText`], the page's few words about it (its title,
//! "Open the training lab", its name in the embed list), in a table of
//! their own so that the page does not keep [`TrainText`] in the main module.

use super::{strings, Lang};

strings! {
    TrainText, TRAIN, super::BASE_T;
    TrainLead => "一个只有注意力的小模型（词嵌入加位置、注意力层、反嵌入），就在这个页面里用 f64 训练：选一个任务，按“训练”，看评估集上的损失下降，看每个头的权重图怎样变成一种模式。",
        "A small attention-only model (embeddings plus positions, attention layers, an unembedding), trained in f64 right in this page: pick a task, press Train, and watch the loss on the evaluation set fall and each head's weights settle into a pattern.";
    TrainPredictFirst => "先猜一猜：", "Predict first:";
    TrainPredictRight => "猜对了。", "Right.";
    TrainPredictWrong => "不对。", "Not quite.";
    TrainPredictSkip => "直接看结果", "Just show me";
    AnswerCan => "能", "Yes";
    AnswerCannot => "不能", "No";
    NeedsPositions => "需要位置", "It needs positions";
    NoPositionsNeeded => "不需要位置", "It does not";
    QPrevious => "一层、一个头：模型能学会“看前一个词”吗？",
        "One layer, one head: can the model learn to look at the previous token?";
    EPrevious => "能。有了位置，一个头可以按位置打分：每个查询把几乎全部权重放在它前面的那个位置上（见下面每个头的前一词元分数），输出就是前一个词的向量，反嵌入再把它读成那个词。",
        "Yes. With positions a head can score by place: each query puts nearly all its weight on the position just before it (see each head's previous-token score below), so its output is the previous token's vector, which the unembedding reads back as that token.";
    QReverse => "去掉位置（“位置”选“无”），模型还能学会倒序吗？",
        "Without positions (set Positions to none), can the model still learn to reverse the sequence?";
    EReverse => "不能。注意力本身看不出顺序（笔记 000 第 5.2 节）：没有位置，同一个词不管站在哪里都得到同样的输出，准确率停在偶然水平附近；换成学习得到的位置再训练，它就学会了。",
        "No. Attention alone has no order (note 000 §5.2): without positions a token gets the same output wherever it stands, so accuracy stays near chance; with learned positions it learns.";
    QInduction => "只用一层注意力，模型能学会归纳（重复的片段里，预测上次跟在这个词后面的词）吗？",
        "With a single attention layer, can the model learn induction (in a repeated run, predict the token that followed this one last time)?";
    EInduction => "不能。归纳要两步：第一层的前一词元头把“我前面是哪个词”写进每个位置，第二层的归纳头再去找“上次跟在我后面的词”。一层只能做其中一步（笔记 000 第 3.2 节：层可以叠起来）。用两层训练，看第二层有没有头被标成“归纳头”。",
        "No. Induction takes two steps: a previous-token head in the first layer writes \"which token came before me\" into each position, and an induction head in the second layer looks for \"the token that followed me last time\". One layer can do only one of them (note 000 §3.2: layers stack). Train with two layers and watch for a second-layer head labelled \"induction head\".";
    QMajority => "分类：答案只从最后一个位置读出。模型要有位置才能数出哪个词最多吗？",
        "Classification: the answer is read from the last position alone. Does the model need positions to count which token is most frequent?";
    EMajority => "不需要。数数与顺序无关：最后一个位置的查询可以把权重摊在所有词上，平均值里份额最大的词就是答案（笔记 000 第 2.1 节：一个序列一个标签）。把“位置”选“无”试试。",
        "It does not. Counting does not depend on order: the last position's query can spread its weight over every token, and the token with the largest share of that average is the answer (note 000 §2.1: one label per sequence). Try it with Positions set to none.";
    QSeq2seq => "模型一次写一个词，它怎样告诉你答案写完了？",
        "The model writes one token at a time. How does it tell you the answer is over?";
    AnswerEos => "它写出 <EOS>", "It writes <EOS>";
    AnswerLimit => "写满 n 个位置才停", "It stops when all n positions are full";
    ESeq2seq => "它写出 <EOS>：训练时答案后面的词就是 <EOS>，生成时写出它就停（笔记 000 第 2.2 节）。",
        "It writes <EOS>: in training the token after the answer is <EOS>, and generation stops once it writes one (note 000 §2.2).";
    QMultilabel => "用 sigmoid 读出时，它能同时对几个字母说“出现了”？", "With the sigmoid read-out, how many letters can it say occur at once?";
    AnswerAnyNumber => "任意多个", "Any number";
    AnswerOnlyOne => "只能一个", "Only one";
    EMultilabel => "任意多个：每个 sigmoid 各自独立，各用二元交叉熵训练；softmax 的输出和为 1，只适合选一个（笔记 000 第 2 节）。",
        "Any number: each sigmoid is independent, trained with its own binary cross-entropy; softmax outputs sum to 1 and suit picking one (note 000 §2).";
    QDigits => "模型要有位置才能从小块认出数字吗？", "Does the model need positions to read the digit from its patches?";
    EDigits => "需要。没有位置时，小块只是一组向量：把一张图的小块打乱，注意力给出的答案完全一样，模型分不清上半个圈和下半个圈在哪儿。ViT 给每个小块加上位置（笔记 000 第 5.3 节）。把“位置”选“无”试试，看留出集上的准确率。",
        "Yes. Without positions the patches are a set of vectors: shuffle an image's patches and attention gives exactly the same answer, so the model cannot tell whether a loop is at the top or the bottom. A ViT adds a position to every patch (note 000 §5.3). Choose no positions and watch the held-out accuracy.";
    DigitsLoading => "正在加载手写数字……", "Loading the handwritten digits…";
    DigitsFailed => "手写数字没能加载，模型还是原来的；再选一次这个任务就会重试。", "The handwritten digits could not be loaded; the model is unchanged. Choose the task again to retry.";
    DigitsSource => "数据：UCI 光学识别手写数字（E. Alpaydin、C. Kaynak，1998），CC BY 4.0。每张图 8 × 8 像素；留出集的图从不用于训练，准确率就在它上面算。",
        "Data: UCI Optical Recognition of Handwritten Digits (E. Alpaydin, C. Kaynak, 1998), CC BY 4.0. Each image is 8 × 8 pixels; the held-out images are never trained on, and the accuracy is measured on them.";
    PatchesTitle => "类别词元 [CLS] 在留出集第一张图的小块上的注意力（每个头一张）", "Where the class token [CLS] attends over the patches of the first held-out image (one per head)";
    Now => "现在：第 {1} 步，准确率 {2}，损失 {3}。", "Now: step {1}, accuracy {2}, loss {3}.";
    Task => "任务", "Task";
    TaskPrevious => "前一个词", "Previous token";
    TaskReverse => "倒序", "Reverse";
    TaskInduction => "归纳", "Induction";
    TaskMajority => "多数（分类）", "Majority (classification)";
    TaskSeq2seq => "排序（序列到序列）", "Sort (sequence to sequence)";
    TaskMultilabel => "出现了哪些字母（多标签）", "Which letters occur (multi-label)";
    Patch => "小块边长（像素）", "Patch side (pixels)";
    PatchesAnswer => "这张图是 {1}，模型说是 {2}。金色越浓，[CLS] 给那一块的权重越大（不透明度就是权重）。", "This image is a {1}; the model says {2}. The deeper the gold, the more weight [CLS] gives that patch (its opacity is the weight).";
    TaskDigits => "手写数字（图像小块，分类）", "Handwritten digits (image patches, classification)";
    Readout => "读出方式", "Read-out";
    ReadoutSigmoid => "每个标签一个 sigmoid", "a sigmoid per label";
    ReadoutSequence => "按字母顺序写成序列，到 <EOS>", "a sequence, alphabetical, until <EOS>";
    OutputMultiLabel => "一组标签，即多标签分类（笔记 000 第 2 节）：输入里出现了哪些字母", "a set of labels, multi-label classification (note 000 §2): which letters occur in the input";
    BothTitle => "两种读出", "Both read-outs";
    BothLead => "输入 {1}，出现的字母 {2}。", "Input {1}; the letters that occur: {2}.";
    BothSigmoid => "sigmoid：概率大于 1/2 的字母", "Sigmoid: the letters above 1/2";
    BothSequence => "序列：一个一个写到 <EOS>", "Sequence: written one by one until <EOS>";
    NotTrained => "（没有用这种读出训练）", "(not trained with this read-out)";
    OutputKind => "输出：", "Output:";
    OutputLabeling => "每个位置一个标签，即序列标注（笔记 000 第 2.1 节）", "one label per position, sequence labeling (note 000 §2.1)";
    OutputClassification => "整个序列一个标签，即分类（笔记 000 第 2.1 节）", "one label for the whole sequence, classification (note 000 §2.1)";
    OutputSequence => "由模型决定长度的序列，一次一个词，写到 <EOS>（笔记 000 第 2.2 节）", "a sequence whose length the model decides, one token at a time until <EOS> (note 000 §2.2)";
    WholeAccuracy => "整个答案全对", "Whole answers right";
    GenerateTitle => "生成到 <EOS>", "Generating until <EOS>";
    GenerateLead => "每种输入长度一个评估样本：从输入和 <SEP> 起一次写一个词，到 <EOS> 或长度上限为止。",
        "One evaluation sample per input length: from the input and <SEP>, one token at a time until <EOS> or the length limit.";
    GenerateLine => "{1} → {2}（{3}，{4}）", "{1} → {2} ({3}; {4})";
    StoppedEos => "第 {1} 个词是 <EOS>", "<EOS> as token {1}";
    StoppedLimit => "到长度上限，没有 <EOS>", "no <EOS> by the length limit";
    GenerateRight => "全对", "all right";
    GenerateWrong => "有错（正确答案：{1}）", "wrong (the right answer: {1})";
    Layers => "层数", "Layers";
    Heads => "每层头数", "Heads per layer";
    DModel => "d_model（向量宽度）", "d_model (vector width)";
    Positions => "位置", "Positions";
    PosLearned => "学习得到的", "learned";
    PosSinusoidal => "正弦", "sinusoidal";
    PosNone => "无", "none";
    SeedLabel => "随机种子", "Seed";
    BadSeed => "种子必须是不小于零的整数，已保留原来的值", "The seed must be a whole number, not negative; the last value stays";
    BadConfig => "这个设置建不成模型：{1}", "This setting cannot build a model: {1}";
    Train => "训练", "Train";
    OneStep => "走一步", "One step";
    Reset => "重置", "Reset";
    Open => "在工作台中打开", "Open in the workbench";
    Export => "导出模型", "Export model";
    Import => "导入模型", "Import model";
    ImportFailed => "模型文件没有导入：{1}", "The model file was not imported: {1}";
    Imported => "已导入：第 {1} 步的模型。", "Imported: the model at step {1}.";
    Unreadable => "无法读取这个文件", "the file could not be read";
    Target => "目标：每秒 {1} 步", "target: {1} steps/s";
    Measured => "实测：每秒 {1} 步", "measured: {1} steps/s";
    StateIdle => "未训练", "not trained";
    StateTraining => "训练中", "training";
    StatePaused => "已暂停", "paused";
    StateDone => "完成", "done";
    Step => "步数", "Step";
    State => "状态", "State";
    Loss => "损失", "Loss";
    Accuracy => "准确率", "Accuracy";
    DoneRule => "评估集上全部预测正确，或到了第 {1} 步，训练就停下。",
        "Training stops when every prediction on the evaluation set is right, or at step {1}.";
    EvalSet => "损失是固定评估集（{1} 个序列）上的平均交叉熵；准确率是其中预测对的位置所占的比例。",
        "The loss is the mean cross-entropy on a fixed evaluation set ({1} sequences); the accuracy is the share of its predicted positions that are right.";
    CurveTitle => "损失和准确率", "Loss and accuracy";
    CurveAxes => "横轴：步数，到 {1}；纵轴：损失（实线，最高 {2}）和准确率（虚线，最高为全对）。",
        "Across: steps, up to {1}; up: the loss (solid, at most {2}) and the accuracy (dashed, up to all right).";
    HeadsTitle => "每个头在评估样本上的注意力权重（同一色标）", "Every head's attention weights on the evaluation sample (one colour scale)";
    Sample => "评估样本：", "Evaluation sample:";
    HeadName => "第 {1} 层 · 头 {2}", "Layer {1} · head {2}";
    PreviousHead => "前一词元头", "previous-token head";
    InductionHead => "归纳头", "induction head";
    Scores => "前一词元分数 {1}，归纳分数 {2}", "previous-token score {1}, induction score {2}";
    Labelled => "{1}（分数 {2}）", "{1} (score {2})";
    DecodeTitle => "解码：一次一个词，对比一次并行", "Decoding: one token at a time, against one parallel pass";
    DecodeLead => "训练是并行的：一次前向就得到每个位置的预测（笔记 000 第 6.2 节）。生成却只能一步一步来：每步只为一个新位置算查询、键和值，键和值存进缓存。这里用评估样本的前 {1} 个词作提示，让模型自己往下写。",
        "Training is parallel: one forward pass gives every position's prediction (note 000 §6.2). Generating goes step by step: each step computes the query, key and value of one new position and keeps the key and value in a cache. Here the first {1} tokens of the evaluation sample are the prompt, and the model writes on by itself.";
    DecodeSteps => "并行：{1} 次前向，得到全部 {2} 个位置的预测。解码：{3} 步，每步一个位置。",
        "Parallel: {1} pass for the predictions at all {2} positions. Decoding: {3} steps, one position each.";
    DecodeAgree => "前缀相同的 {1} 个位置上，两者的预测有 {2} 个一致。",
        "At the {1} positions whose inputs so far are the same, {2} of the predictions agree.";
    DecodeNotCausal => "这个任务没有因果掩码（每个位置都看得到后面的词），而解码器看不到未来，所以两者的预测可以不同。",
        "This task has no causal mask (each position sees the later tokens), but a decoder cannot see the future, so the two may predict differently.";
    DecodeWhen => "训练停下后显示。", "Shown when training stops.";
    Position => "位置", "position";
    SampleRow => "样本", "sample";
    ParallelRow => "并行预测", "parallel prediction";
    DecoderInput => "解码器的输入", "decoder's input";
    DecoderRow => "解码预测", "decoder's prediction";
    WhyField => "{1}：{2}", "{1}: {2}";
    WhyNotJson => "不是 JSON：第 {1} 行第 {2} 列，{3}", "not JSON: line {1}, column {2}: {3}";
    WhyNotObject => "应为 JSON 对象", "expected a JSON object";
    WhyBeyondF64 => "数字超出了 f64 的范围", "a number beyond f64";
    WhyMissing => "缺少这一项", "missing";
    WhyText => "应为字符串", "expected a string";
    WhyNumber => "应为数字", "expected a number";
    WhyWhole => "应为不小于 0 的整数", "expected a whole number ≥ 0";
    WhyTooLarge => "太大了", "too large";
    WhyFormat => "应为 \"{1}\"，实际是 \"{2}\"", "expected \"{1}\", got \"{2}\"";
    WhyTask => "没有叫 \"{1}\" 的任务", "unknown task \"{1}\"";
    WhyPositions => "没有叫 \"{1}\" 的位置编码", "unknown positions \"{1}\"";
    WhyReadout => "没有叫 \"{1}\" 的读出方式", "unknown readout \"{1}\"";
    WhyMatrices => "应为由矩阵组成的对象", "expected an object of matrices";
    WhyRows => "应为由行组成的数组", "expected an array of rows";
    WhyRowCount => "应为 {1}×{2}，实际有 {3} 行", "expected {1}×{2}, got {3} rows";
    WhyRowLength => "应为 {1}×{2}：每行 {2} 个数", "expected {1}×{2}: a row of {2} numbers";
    WhyWeightRange => "应为 {1} 到 {2} 之间的数", "expected a number from {1} to {2}";
    WhyRange => "应在 {1} … {2} 之间，实际是 {3}", "expected {1} … {2}, got {3}";
    WhyPositiveLr => "应为正数，实际是 {1}", "expected a positive number, got {1}";
    WhyTaskNeedsN => "“{1}”任务需要 n ≥ {2}，实际是 {3}", "{1} needs n ≥ {2}, got {3}";
    WhySequenceVocab => "序列到序列任务需要词表大小 ≥ (n − 2)/2 + 2 = {1}（输入最多 (n − 2)/2 个不同的词，再加 <SEP> 和 <EOS>），实际是 {2}",
        "seq2seq needs vocab ≥ (n − 2)/2 + 2 = {1} (an input of up to (n − 2)/2 distinct tokens, then <SEP> and <EOS>), got {2}";
    WhyInductionVocab => "归纳任务需要词表大小 ≥ n/2 = {1}（一段最多 n/2 − 1 个不同的词，再加一个填充词），实际是 {2}",
        "induction needs vocab ≥ n/2 = {1} (a block of up to n/2 − 1 distinct tokens and one more for the filler), got {2}";
    WhyTokenCount => "应为 1 … {1} 个词，实际是 {2}", "expected 1 … {1} tokens, got {2}";
    WhyTokenCountSteps => "应为 1 … {1} 个词（连同要生成的步数），实际是 {2}", "expected 1 … {1} tokens with the steps, got {2}";
    WhyNotAToken => "{1} 不是大小为 {2} 的词表中的词", "{1} is not a token of a vocabulary of {2}";
    WhyNoDigits => "手写数字的数据还没有载入", "the digits' data is not loaded";
    WhyPatch => "应为 2 或 4（把 8×8 的图像切成小块，小块的边长），实际是 {1}", "expected 2 or 4 (the side of the square patches the 8×8 image is cut into), got {1}";
    WhyDigitsClasses => "手写数字任务有 10 个类别（数字 0 … 9）：应为 10，实际是 {1}", "digits has 10 classes (the digits 0 … 9): expected 10, got {1}";
    WhyPatchPositions => "小块边长为 {1} 时有 (8/{1})² + 1 = {2} 个位置（一个类别标记，每个小块一个），实际是 {3}",
        "a patch side of {1} gives (8/{1})² + 1 = {2} positions (the class token, then one per patch), got {3}";
    WhyImageInput => "手写数字任务的输入是图像，不是词", "digits reads an image, not tokens";
}

strings! {
    TrainPageText, TRAIN_PAGE, super::BASE_TP;
    TrainTitle => "训练实验：看注意力头学会看哪里", "The training lab: watch attention heads learn where to look";
    TrainOpenLab => "打开训练实验", "Open the training lab";
    TrainLoading => "正在加载训练实验……", "Loading the training lab…";
    TrainFailed => "训练实验没能加载。", "The training lab could not be loaded.";
    ViewTrain => "训练实验", "Training lab";
    TokensTitle => "词元实验：图像、声音和图怎样变成序列", "The tokens lab: how an image, a sound and a graph become a sequence";
    TokensOpenLab => "打开词元实验", "Open the tokens lab";
    TokensLoading => "正在加载词元实验……", "Loading the tokens lab…";
    TokensFailed => "词元实验没能加载。", "The tokens lab could not be loaded.";
    ViewTokens => "词元实验", "Tokens lab";
}

impl TrainText {
    /// The words of the predict frame (`labs::predict::Predict`).
    pub fn predict_words(lang: Lang) -> [&'static str; 4] {
        [
            TrainText::TrainPredictFirst,
            TrainText::TrainPredictRight,
            TrainText::TrainPredictWrong,
            TrainText::TrainPredictSkip,
        ]
        .map(|k| k.t(lang))
    }
}
