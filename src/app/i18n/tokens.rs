//! The tokens lab's chunk's texts: what becomes a sequence (an image's
//! patches, a sound's frames, a network's people), its controls, figures
//! and questions.

use super::{strings, Lang};

strings! {
    TokensText, TOKENS, super::BASE_K;
    TokLead => "注意力接受任何一串向量，词只是其中一种（笔记 000 第 1 节、第 5.3 节）。选一种对象，看它怎样被切成词元、引擎收到的矩阵 X 是什么样子，以及一个词元的注意力落在哪里。",
        "Attention takes any sequence of vectors; words are only one kind (note 000 §1, §5.3). Choose what becomes the sequence and see how it is cut into tokens, the matrix X the engine receives, and where one token's attention goes.";
    TokKind => "什么变成序列", "What becomes the sequence";
    TokKindImage => "图像：切成小块", "An image, cut into patches";
    TokKindAudio => "声音：切成帧", "A sound, cut into frames";
    TokKindGraph => "社交网络：每人一个词元", "A social network, one token per person";
    TokImageTitle => "图像（点击或拖动来画）", "The image (click or drag to draw)";
    TokDigit => "手写数字", "A handwritten digit";
    TokClear => "清空", "Clear";
    TokPatch => "小块边长 p（像素）", "Patch side p (pixels)";
    TokPatchesTitle => "它的小块：点一块，让它做查询", "Its patches: click one to make it the query";
    TokImageN => "n = (边长 / p)² = ({1} / {2})² = {3} 个词元；每块 p² = {4} 个像素，乘以投影矩阵变成 d = {5} 个数，再加上它所在的行和列（二维位置编码）。",
        "n = (side / p)² = ({1} / {2})² = {3} tokens; each patch is p² = {4} pixels, multiplied by a projection to d = {5} numbers, plus its row and column (two-dimensional positions).";
    TokXTitle => "X（n × d）：引擎收到的矩阵，每个词元一行", "X (n × d): the matrix the engine receives, one row per token";
    TokXAudioTitle => "X 的转置（d × n）：每帧一列，像一张声谱图", "X transposed (d × n): one column per frame, like a spectrogram";
    TokWeightsOf => "查询 {1} 的注意力权重", "Attention weights of query {1}";
    TokAudioTitle => "声音（页面自己合成：几个元音和停顿）", "The sound (made by the page: a few vowels and pauses)";
    TokDuration => "时长（秒，0.1–2）", "Duration (seconds, 0.1–2)";
    TokBadDuration => "时长必须是 0.1 到 2 之间的秒数，已保留原来的值", "The duration must be a number of seconds from 0.1 to 2; the last value stays";
    TokAudioN => "每 {1} 毫秒一帧，每帧取 {2} 毫秒的窗口：{3} 秒得到 n = {4} 帧；每帧是 d = {5} 个频带的能量（取对数），再加上它在时间中的位置。",
        "One frame every {1} ms, each a window of {2} ms: {3} s of sound is n = {4} frames; each frame is d = {5} band energies (their logarithm), plus its position in time.";
    TokFramesHow => "点一帧，让它做查询；下面的柱子是它对每一帧的权重。", "Click a frame to make it the query; the bars below are its weight on every frame.";
    TokCost => "n = {1} 时，一个头要算 n² = {2} 个分数，约 {3} 次乘加；一分钟的录音是 {4} 帧、{5} 个分数。",
        "At n = {1} one head computes n² = {2} scores, about {3} multiply-adds; a minute of recording is {4} frames and {5} scores.";
    TokGraphTitle => "社交网络：每人一个词元", "A social network: one token per person";
    TokReach => "谁能看谁", "Who may attend to whom";
    TokReachFriends => "只看朋友（邻接矩阵就是掩码）", "Friends only (the adjacency is the mask)";
    TokReachEveryone => "看所有人（全局）", "Everyone (global)";
    TokGraphHow => "点一个人，让他做查询；实心圆越大，权重越大。", "Click a person to make them the query; the larger the filled circle, the larger the weight.";
    TokGraphNoOrder => "一群人没有先后顺序，所以不加位置编码；每人的向量是下面这几项。", "A group of people has no order, so no positions are added; each person's vector is the features below.";
    TokPerson => "人", "Person";
    TokFeatures => "年龄（年轻 −1，年长 1）、爱玩游戏、爱徒步、上网的活跃程度，都在 −1 到 1 之间", "age (young −1, old 1), games, hiking and how active online, each from −1 to 1";
    TokImageQuestion => "现在 p = {1}，n = {2}。把小块边长改成 p = {3}，注意力要在多少个词元之间计算？",
        "Now p = {1} and n = {2}. With patches of side p = {3}, how many tokens will attention compare?";
    TokImageExplain => "n = (边长 / p)²：每行和每列的小块数都按同一比例变化，所以 n 按它的平方变化：{1} → {2}，分数的个数 n² 从 {3} 变成 {4}。",
        "n = (side / p)²: the patches per row and per column both change by the same factor, so n changes by its square: {1} → {2}, and the n² scores from {3} to {4}.";
    TokAudioQuestion => "现在 {1} 秒是 n = {2} 帧。录音长到 {3} 秒时，一个头要算多少个分数？",
        "Now {1} s are n = {2} frames. With a recording of {3} s, how many scores does one head compute?";
    TokAudioExplain => "时间加倍，帧数也加倍（{1} → {2}），而每一帧都要和每一帧打分：n² 从 {3} 变成 {4}，是原来的四倍。所以长录音要先切段、池化，或只在窗口里算注意力（见“代价”实验）。",
        "Twice the time is twice the frames ({1} → {2}), and every frame scores every frame: n² goes from {3} to {4}, four times as many. That is why long recordings are cut, pooled or attended to in windows (the cost lab).";
    TokGraphQuestion => "只看朋友时，{1} 给不是朋友的 {2} 多少权重？", "With friends only, how much weight does {1} give {2}, who is not a friend?";
    TokAnswerZero => "正好是 0", "Exactly 0";
    TokAnswerLess => "一点点，比给朋友的少", "A little, less than a friend gets";
    TokAnswerSame => "和看所有人时一样", "The same as with everyone";
    TokGraphExplain => "掩码在 softmax 之前把这一对去掉，所以权重正好是 0，朋友们的权重加起来是 1。看所有人时，{1} 给 {2} 的权重是 {3}。",
        "The mask removes the pair before the softmax, so its weight is exactly 0 and the friends' weights add up to 1. With everyone, {1} gives {2} a weight of {3}.";
    TokPredictFirst => "先猜一猜：", "Predict first:";
    TokPredictRight => "猜对了。", "Right.";
    TokPredictWrong => "不对。", "Not quite.";
    TokPredictSkip => "直接看结果", "Just show me";
    TokFrame => "帧", "frame";
    TokQueryFrame => "查询帧", "Query frame";
    TokPatchWord => "小块", "patch";
}

impl TokensText {
    /// The words of the predict frame (`labs::predict::Predict`).
    pub fn predict_words(lang: Lang) -> [&'static str; 4] {
        [
            TokensText::TokPredictFirst,
            TokensText::TokPredictRight,
            TokensText::TokPredictWrong,
            TokensText::TokPredictSkip,
        ]
        .map(|k| k.t(lang))
    }
}
