<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>About</name>
    <message>
        <source>Exact parameter counts, memory and FLOPs of transformer language models, live as you edit.</source>
        <translation>Transformer 语言模型的精确参数量、显存与 FLOPs，边编辑边更新。</translation>
    </message>
    <message>
        <source>Your presets</source>
        <translation>你的预设</translation>
    </message>
    <message>
        <source>Built-in presets</source>
        <translation>内置预设</translation>
    </message>
    <message>
        <source>Your GPU catalog</source>
        <translation>你的 GPU 目录</translation>
    </message>
    <message>
        <source>Recent models</source>
        <translation>最近的模型</translation>
    </message>
    <message>
        <source>Error log</source>
        <translation>错误日志</translation>
    </message>
    <message>
        <source>Desktop entry</source>
        <translation>桌面启动项</translation>
    </message>
    <message>
        <source>User guide</source>
        <translation>用户指南</translation>
    </message>
    <message>
        <source>Window settings</source>
        <translation>窗口设置</translation>
    </message>
    <message>
        <source>size, splitters, theme and the dialogs&apos; last choices</source>
        <translation>窗口大小、分隔条、主题以及各对话框上次的选择</translation>
    </message>
    <message>
        <source>About ParamTally</source>
        <translation>关于 ParamTally</translation>
    </message>
    <message>
        <source>Licence:</source>
        <translation>许可证：</translation>
    </message>
    <message>
        <source>&lt;b&gt;Where ParamTally keeps its files&lt;/b&gt;</source>
        <translation>&lt;b&gt;ParamTally 的文件位置&lt;/b&gt;</translation>
    </message>
    <message>
        <source>  (not created yet)</source>
        <translation>  （尚未创建）</translation>
    </message>
    <message>
        <source>Copy Details</source>
        <translation>复制详情</translation>
    </message>
    <message>
        <source>The version and these places as plain text, for a bug report</source>
        <translation>以纯文本复制版本与以上位置，用于错误报告</translation>
    </message>
</context>
<context>
    <name>Charts</name>
    <message>
        <source>{part} (apart)</source>
        <translation>{part}（另计）</translation>
    </message>
    <message>
        <source>apart</source>
        <translation>另计</translation>
    </message>
    <message>
        <source>Layer — {stacks}</source>
        <translation>层 — {stacks}</translation>
    </message>
    <message>
        <source>Parameters by part</source>
        <translation>各部分参数量</translation>
    </message>
    <message>
        <source>By part</source>
        <translation>按部分</translation>
    </message>
    <message>
        <source>Parameters per layer, mixer and FFN by kind</source>
        <translation>每层参数量，混合器与前馈网络按类型</translation>
    </message>
    <message>
        <source>Parameters per layer, stacked by part</source>
        <translation>每层参数量，按部分堆叠</translation>
    </message>
    <message>
        <source>Parameters per layer</source>
        <translation>每层参数量</translation>
    </message>
    <message>
        <source>Per layer</source>
        <translation>每层</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Per layer (stacked by part)</source>
        <translation>每层（按部分堆叠）</translation>
    </message>
    <message>
        <source>Per layer (mixer and FFN by kind)</source>
        <translation>每层（混合器与前馈网络按类型）</translation>
    </message>
    <message>
        <source>Show the parameters by part of the model, or layer by layer</source>
        <translation>按模型各部分或逐层显示参数量</translation>
    </message>
    <message>
        <source>Bars:</source>
        <translation>柱状图：</translation>
    </message>
    <message>
        <source>{name}: share of {total} parameters</source>
        <translation>{name}：{total} 个参数的占比</translation>
    </message>
</context>
<context>
    <name>Compare</name>
    <message>
        <source>&amp;Pin Open Model</source>
        <translation>固定当前模型(&amp;P)</translation>
    </message>
    <message>
        <source>Add the open model as it is now as a column; later edits leave it</source>
        <translation>将当前模型此刻的状态添加为一列；之后的编辑不会影响它</translation>
    </message>
    <message>
        <source>Add Pre&amp;set</source>
        <translation>添加预设(&amp;S)</translation>
    </message>
    <message>
        <source>Add &amp;File…</source>
        <translation>添加文件(&amp;F)…</translation>
    </message>
    <message>
        <source>A preset JSON or a Hugging Face config.json as a column</source>
        <translation>将预设 JSON 或 Hugging Face config.json 添加为一列</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <source>Remove the column of the selected cell (a pinned one; the open model stays)</source>
        <translation>移除所选单元格所在的列（固定的列；当前模型保留）</translation>
    </message>
    <message>
        <source>The column the others are compared with</source>
        <translation>其他列与之对比的基准列</translation>
    </message>
    <message>
        <source>&amp;Baseline:</source>
        <translation>基准(&amp;B)：</translation>
    </message>
    <message>
        <source>E&amp;xport</source>
        <translation>导出(&amp;X)</translation>
    </message>
    <message>
        <source>Chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>GPU fit</source>
        <translation>GPU 适配</translation>
    </message>
    <message>
        <source>Schema diff</source>
        <translation>字段差异</translation>
    </message>
    <message>
        <source>S&amp;hare of each column</source>
        <translation>各列占比(&amp;H)</translation>
    </message>
    <message>
        <source>Each column&apos;s parts in percent of its own total: beside a model 100× larger, a small model&apos;s bars are a pixel long in parameters</source>
        <translation>每列各部分占其自身总量的百分比：与大 100 倍的模型并列时，小模型按参数量画出的柱只有一个像素长</translation>
    </message>
    <message>
        <source>Under the scenario: {scenario}</source>
        <translation>场景：{scenario}</translation>
    </message>
    <message>
        <source>The column the others are compared with: {column}</source>
        <translation>其他列与之对比的基准列：{column}</translation>
    </message>
    <message>
        <source>Built-in</source>
        <translation>内置</translation>
    </message>
    <message>
        <source>Your presets</source>
        <translation>你的预设</translation>
    </message>
    <message>
        <source>Cannot add the preset</source>
        <translation>无法添加预设</translation>
    </message>
    <message>
        <source>Add a model to compare</source>
        <translation>添加要对比的模型</translation>
    </message>
    <message>
        <source>Model configs (*.json);;All files (*)</source>
        <translation>模型配置 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot add the file</source>
        <translation>无法添加文件</translation>
    </message>
    <message>
        <source>Make &amp;Baseline</source>
        <translation>设为基准(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Remove Column</source>
        <translation>移除列(&amp;R)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>There is no comparison to export.</source>
        <translation>没有可导出的对比。</translation>
    </message>
    <message>
        <source>Parameters by part, compared ({scenario})</source>
        <translation>各部分参数量对比（{scenario}）</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Share of each column&apos;s parameters, by part</source>
        <translation>各列参数量按部分的占比</translation>
    </message>
    <message>
        <source>Share by part</source>
        <translation>按部分占比</translation>
    </message>
    <message>
        <source>Parameters by part, per column</source>
        <translation>各列按部分的参数量</translation>
    </message>
    <message>
        <source>By part</source>
        <translation>按部分</translation>
    </message>
    <message>
        <source>Share of the column&apos;s parameters</source>
        <translation>占该列参数量的比例</translation>
    </message>
    <message>
        <source>Total parameters</source>
        <translation>总参数量</translation>
    </message>
    <message>
        <source>Active parameters</source>
        <translation>激活参数量</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>每块 GPU 显存</translation>
    </message>
    <message>
        <source>(baseline)</source>
        <translation>（基准）</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>基准</translation>
    </message>
    <message>
        <source>{title}: {value}; baseline {baseline}</source>
        <translation>{title}：{value}；基准 {baseline}</translation>
    </message>
    <message>
        <source>; difference {difference}</source>
        <translation>；差值 {difference}</translation>
    </message>
    <message>
        <source>no setups</source>
        <translation>无配置</translation>
    </message>
    <message>
        <source>✔ {gpus} · {size} GB each</source>
        <translation>✔ {gpus} · 每卡 {size} GB</translation>
    </message>
    <message>
        <source>✘ not on {count}</source>
        <translation>✘ {count} 块也放不下</translation>
    </message>
    <message>
        <source>The fewest of {counts} GPUs (Goal Seek finds any count):</source>
        <translation>在 {counts} 块 GPU 中取最少的（目标求解可求任意数量）：</translation>
    </message>
    <message>
        <source>{count} × {gpu}: {fits} ({used} of {usable} GB per GPU, {layout})</source>
        <translation>{count} × {gpu}：{fits}（每卡 {used} / {usable} GB，{layout}）</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>no field differs from the baseline</source>
        <translation>没有与基准不同的字段</translation>
    </message>
    <message>
        <source>— (not set)</source>
        <translation>—（未设置）</translation>
    </message>
    <message>
        <source>{name} (open)</source>
        <translation>{name}（当前）</translation>
    </message>
    <message>
        <source>{name} · pin {number}</source>
        <translation>{name} · 固定 {number}</translation>
    </message>
</context>
<context>
    <name>CopyRows</name>
    <message>
        <source>&amp;Copy selected rows</source>
        <translation>复制所选行(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the selected rows as tab-separated text, with a header line</source>
        <translation>将所选行复制为制表符分隔的文本，带表头行</translation>
    </message>
</context>
<context>
    <name>Core</name>
    <message>
        <source> (EP {ep} as set, each copy as the GPU table lays out {gpus})</source>
        <translation>（按设定 EP {ep}，每个副本按 GPU 表的方式布局在 {gpus} 上）</translation>
    </message>
    <message>
        <source>&apos;{clause}&apos;: a count is a whole number from 1 to {most:,} (a pattern makes at most {most:,} layers)</source>
        <translation>“{clause}”：数量须为 1 到 {most:,} 的整数（一个模式最多生成 {most:,} 层）</translation>
    </message>
    <message>
        <source>&apos;{clause}&apos;: a ratio needs at least one layer</source>
        <translation>“{clause}”：比例至少需要一层</translation>
    </message>
    <message>
        <source>&apos;{clause}&apos;: an empty item (two commas in a row?)</source>
        <translation>“{clause}”：有空项（连续两个逗号？）</translation>
    </message>
    <message>
        <source>&apos;{clause}&apos;: cannot read &apos;{item}&apos; (write a kind, then × and a count)</source>
        <translation>“{clause}”：无法读取“{item}”（请写类型，再写 × 和数量）</translation>
    </message>
    <message>
        <source>&apos;{clause}&apos;: one sequence (or ratio) per pattern; combine them in brackets</source>
        <translation>“{clause}”：每个模式只能有一个序列（或比例）；请用方括号组合</translation>
    </message>
    <message>
        <source>&apos;{clause}&apos;: only an FFN ({ffns}) can be set every n-th layer</source>
        <translation>“{clause}”：只有前馈网络（{ffns}）可以每隔 n 层设置</translation>
    </message>
    <message>
        <source>&apos;{clause}&apos;: say every 2nd (3rd, …) layer</source>
        <translation>“{clause}”：请写 every 2nd（3rd，…）layer</translation>
    </message>
    <message>
        <source>&apos;{clause}&apos;: the window {text} is refused: a window is a whole number of tokens, at least 1</source>
        <translation>“{clause}”：窗口 {text} 被拒绝：窗口是 token 数，须为不小于 1 的整数</translation>
    </message>
    <message>
        <source>&apos;{clause}&apos;: unknown layer kind &apos;{word}&apos; (kinds: {known})</source>
        <translation>“{clause}”：未知的层类型“{word}”（可用类型：{known}）</translation>
    </message>
    <message>
        <source>&apos;{id}&apos; is built in and cannot be deleted</source>
        <translation>“{id}”是内置预设，不能删除</translation>
    </message>
    <message>
        <source>&apos;{id}&apos; is not a user preset</source>
        <translation>“{id}”不是用户预设</translation>
    </message>
    <message>
        <source>&apos;{id}&apos; is not a user preset; only user presets can be renamed</source>
        <translation>“{id}”不是用户预设；只有用户预设可以重命名</translation>
    </message>
    <message>
        <source>&apos;{name}&apos; names several presets ({ids}); give the id</source>
        <translation>“{name}”对应多个预设（{ids}）；请给出 id</translation>
    </message>
    <message>
        <source>&apos;{target}&apos; is named twice; a matrix gets one low-rank update</source>
        <translation>“{target}”出现了两次；每个矩阵只有一个低秩更新</translation>
    </message>
    <message>
        <source>&apos;{typed}&apos; is not a number: type {example}</source>
        <translation>“{typed}”不是数字：请输入 {example}</translation>
    </message>
    <message>
        <source>&apos;{typed}&apos; is not a whole number</source>
        <translation>“{typed}”不是整数</translation>
    </message>
    <message>
        <source>&apos;{typed}&apos; is not a whole number ({near:g})</source>
        <translation>“{typed}”不是整数（{near:g}）</translation>
    </message>
    <message>
        <source>&apos;{typed}&apos; is too long: a number has at most {n:,} digits</source>
        <translation>“{typed}”太长：数字最多 {n:,} 位</translation>
    </message>
    <message>
        <source>&apos;{typed}&apos;: a comma separates thousands (1,500); a fraction takes a point (1.5)</source>
        <translation>“{typed}”：逗号用于千位分隔（1,500）；小数请用小数点（1.5）</translation>
    </message>
    <message>
        <source>&apos;{typed}&apos;: an exponent runs from -{n} to {n}</source>
        <translation>“{typed}”：指数范围为 -{n} 到 {n}</translation>
    </message>
    <message>
        <source>&apos;{typed}&apos;: unknown suffix &apos;{suffix}&apos; (it takes {suffixes})</source>
        <translation>“{typed}”：未知后缀“{suffix}”（可用 {suffixes}）</translation>
    </message>
    <message>
        <source>({n:,}) is more layers than a layer list may hold ({most:,})</source>
        <translation>（{n:,}）超过了层列表可容纳的层数（{most:,}）</translation>
    </message>
    <message>
        <source>({part}) must divide {whole_key} ({whole})</source>
        <translation>（{part}）必须整除 {whole_key}（{whole}）</translation>
    </message>
    <message>
        <source>, as the GPU table does</source>
        <translation>，与 GPU 表一致</translation>
    </message>
    <message>
        <source>--y: {name} is already the x axis</source>
        <translation>--y：{name} 已经是 x 轴</translation>
    </message>
    <message>
        <source>1 GPU</source>
        <translation>1 个 GPU</translation>
    </message>
    <message>
        <source>1 data-parallel GPU</source>
        <translation>1 个数据并行 GPU</translation>
    </message>
    <message>
        <source>1 entry</source>
        <translation>1 项</translation>
    </message>
    <message>
        <source>1 repetition</source>
        <translation>1 次重复</translation>
    </message>
    <message>
        <source>; EP {asked} does not divide the {dp}: EP {fitted}</source>
        <translation>；EP {asked} 不能整除 {dp}：改为 EP {fitted}</translation>
    </message>
    <message>
        <source>; EP {ep} does not fit {gpus}: EP {fitted}</source>
        <translation>；EP {ep} 放不进 {gpus}：改为 EP {fitted}</translation>
    </message>
    <message>
        <source>Convert to dense FFN</source>
        <translation>转换为稠密前馈网络</translation>
    </message>
    <message>
        <source>EP {ep} on {gpus}: laid out as {words}</source>
        <translation>{gpus} 上的 EP {ep}：布局为 {words}</translation>
    </message>
    <message>
        <source>FLOPs per token</source>
        <translation>每 token FLOPs</translation>
    </message>
    <message>
        <source>File → Open Recent</source>
        <translation>文件 → 最近打开</translation>
    </message>
    <message>
        <source>GGUF formats type tensors layer by layer (llama.cpp): at most {most:,} layers, this model has {n:,}</source>
        <translation>GGUF 格式逐层为张量指定类型（llama.cpp）：最多 {most:,} 层，该模型有 {n:,} 层</translation>
    </message>
    <message>
        <source>GPU kinds added to the built-in ones, or prices</source>
        <translation>在内置型号之外添加的 GPU 型号，或价格</translation>
    </message>
    <message>
        <source>KV cache per GPU</source>
        <translation>每块 GPU 的 KV 缓存</translation>
    </message>
    <message>
        <source>KV heads ({g}) must divide the query heads ({a})</source>
        <translation>KV 头数（{g}）必须整除查询头数（{a}）</translation>
    </message>
    <message>
        <source>LoRA on a vision tower alone is not estimated: train it whole (no LoRA rank)</source>
        <translation>单独的视觉塔不估算 LoRA：请整体训练（不设 LoRA 秩）</translation>
    </message>
    <message>
        <source>Make the {stack} from a pattern</source>
        <translation>由模式生成 {stack}</translation>
    </message>
    <message>
        <source>QLoRA needs a LoRA rank</source>
        <translation>QLoRA 需要设置 LoRA 秩</translation>
    </message>
    <message>
        <source>Set {named}</source>
        <translation>设置 {named}</translation>
    </message>
    <message>
        <source>Set {title} on 1 group</source>
        <translation>在 1 个层组上设置 {title}</translation>
    </message>
    <message>
        <source>Set {title} on {n} groups</source>
        <translation>在 {n} 个层组上设置 {title}</translation>
    </message>
    <message>
        <source>Tensor/Pipeline parallel</source>
        <translation>张量/流水线并行</translation>
    </message>
    <message>
        <source>The FFN width</source>
        <translation>前馈网络宽度</translation>
    </message>
    <message>
        <source>The context ({context:,} tokens) exceeds the model&apos;s maximum positions ({limit:,}): it was not trained that long (RoPE needs scaling to stretch)</source>
        <translation>上下文（{context:,} 个 token）超过模型的最大位置数（{limit:,}）：模型没有在这么长的序列上训练过（RoPE 需要缩放才能外推）</translation>
    </message>
    <message>
        <source>The context ({context:,} tokens) exceeds the model&apos;s {limit:,} learned positions: it has no position rows beyond them</source>
        <translation>上下文（{context:,} 个 token）超过模型的 {limit:,} 个可学习位置：超出部分没有位置嵌入行</translation>
    </message>
    <message>
        <source>The encoder reads {tokens:,} tokens per request, past its {limit:,} positions (the cross-attention cache is for them all)</source>
        <translation>编码器每个请求读取 {tokens:,} 个 token，超过其 {limit:,} 个位置（交叉注意力缓存按全部 token 计）</translation>
    </message>
    <message>
        <source>The expert width</source>
        <translation>专家宽度</translation>
    </message>
    <message>
        <source>The head width {head} is not a multiple of {multiple}: fused attention kernels (FlashAttention) need one; 64 or 128 run best</source>
        <translation>头维度 {head} 不是 {multiple} 的倍数：融合注意力算子（FlashAttention）要求如此；64 或 128 最快</translation>
    </message>
    <message>
        <source>The hidden size</source>
        <translation>隐藏层维度</translation>
    </message>
    <message>
        <source>The vocabulary ({vocab:,} rows) is not padded to a multiple of {tile}, so the embedding and head matmuls run slower; pad it to {padded:,} (a multiple of 128 too)</source>
        <translation>词表（{vocab:,} 行）未填充到 {tile} 的倍数，嵌入层和输出头的矩阵乘法会变慢；建议填充到 {padded:,}（也是 128 的倍数）</translation>
    </message>
    <message>
        <source>The vocabulary ({vocab:,} rows) is not padded to a multiple of {tile}, so the embedding and head matmuls run slower; pad it to {padded:,} (or {better:,}, a multiple of 128)</source>
        <translation>词表（{vocab:,} 行）未填充到 {tile} 的倍数，嵌入层和输出头的矩阵乘法会变慢；建议填充到 {padded:,}（或 128 的倍数 {better:,}）</translation>
    </message>
    <message>
        <source>Type {title} (not applied yet)</source>
        <translation>输入 {title}（尚未应用）</translation>
    </message>
    <message>
        <source>__metadata__ must be an object of strings</source>
        <translation>__metadata__ 必须是值为字符串的对象</translation>
    </message>
    <message>
        <source>a config.json must be a JSON object</source>
        <translation>config.json 必须是 JSON 对象</translation>
    </message>
    <message>
        <source>a field</source>
        <translation>一个字段</translation>
    </message>
    <message>
        <source>a pattern needs at least one layer group</source>
        <translation>模式至少需要一个层组</translation>
    </message>
    <message>
        <source>a sweep may hold at most {most:,} cells</source>
        <translation>一次扫描最多 {most:,} 个单元格</translation>
    </message>
    <message>
        <source>a positive integer</source>
        <translation>正整数</translation>
    </message>
    <message>
        <source>&apos;{preset_id}&apos; is not a usable preset id (letters, digits, &apos;.&apos;, &apos;_&apos;, &apos;+&apos;, &apos;-&apos;; at most 100; no &apos;/&apos; or &apos;.json&apos;)</source>
        <translation>“{preset_id}”不是可用的预设 ID（只能用字母、数字、&apos;.&apos;、&apos;_&apos;、&apos;+&apos;、&apos;-&apos;；最多 100 个字符；不能含 &apos;/&apos; 或以 &apos;.json&apos; 结尾）</translation>
    </message>
    <message>
        <source>(a latent projection around the experts) is not read yet</source>
        <translation>（专家前后的潜在投影）尚不支持读取</translation>
    </message>
    <message>
        <source>({a}) must divide d_model ({h})</source>
        <translation>（{a}）必须整除 d_model（{h}）</translation>
    </message>
    <message>
        <source>({d}) differs from encoder.hidden_size ({e}): an encoder and a decoder of two widths (T5Gemma 9B-2B) are not supported</source>
        <translation>（{d}）与 encoder.hidden_size（{e}）不同：不支持编码器与解码器宽度不同的模型（T5Gemma 9B-2B）</translation>
    </message>
    <message>
        <source>({heads}) must divide mamba_expand × hidden_size ({inner})</source>
        <translation>（{heads}）必须整除 mamba_expand × hidden_size（{inner}）</translation>
    </message>
    <message>
        <source>({lru}) must split into the {a} attention heads (the RG-LRU&apos;s gate blocks)</source>
        <translation>（{lru}）必须能均分到 {a} 个注意力头（RG-LRU 的门控分块）</translation>
    </message>
    <message>
        <source>({out}) must be the language model&apos;s hidden_size ({h})</source>
        <translation>（{out}）必须等于语言模型的 hidden_size（{h}）</translation>
    </message>
    <message>
        <source>({out}) must be the language model&apos;s hidden_size ({h}): the merger maps to it</source>
        <translation>（{out}）必须等于语言模型的 hidden_size（{h}）：merger 会映射到该维度</translation>
    </message>
    <message>
        <source>({qk}) differs from qk_nope_head_dim + qk_rope_head_dim ({sum})</source>
        <translation>（{qk}）不等于 qk_nope_head_dim + qk_rope_head_dim（{sum}）</translation>
    </message>
    <message>
        <source>({tokens}) must be a square whose side divides the {side} patches a side of the image</source>
        <translation>（{tokens}）必须是平方数，且其边长整除图像每边的 {side} 个 patch</translation>
    </message>
    <message>
        <source>({top_k}) must not exceed num_local_experts ({experts})</source>
        <translation>（{top_k}）不能超过 num_local_experts（{experts}）</translation>
    </message>
    <message>
        <source>({width}) must be the text model&apos;s hidden_size ({h})</source>
        <translation>（{width}）必须等于文本模型的 hidden_size（{h}）</translation>
    </message>
    <message>
        <source>--fits: &apos;{setup}&apos; needs a GPU count (GPU:COUNT)</source>
        <translation>--fits：“{setup}”需要 GPU 数量（GPU:COUNT）</translation>
    </message>
    <message>
        <source>--multiple-of must be at least 1, not {n}</source>
        <translation>--multiple-of 至少为 1，而不是 {n}</translation>
    </message>
    <message>
        <source>--target: &apos;{count}&apos; is not a GPU count (fits=GPU:COUNT)</source>
        <translation>--target：“{count}”不是 GPU 数量（fits=GPU:COUNT）</translation>
    </message>
    <message>
        <source>--target: &apos;{text}&apos; is not FIGURE=VALUE (e.g. total=7e9, fits=h100-sxm-80gb:1)</source>
        <translation>--target：“{text}”不是 FIGURE=VALUE 的形式（例如 total=7e9、fits=h100-sxm-80gb:1）</translation>
    </message>
    <message>
        <source>1 image of {size:,}² pixels</source>
        <translation>1 张 {size:,}² 像素的图像</translation>
    </message>
    <message>
        <source>a prefill&apos;s weight read at {share:.1%} of the GPU&apos;s peak HBM bandwidth (--bandwidth-efficiency {share:g})</source>
        <translation>预填充读取权重时按 GPU 峰值 HBM 带宽的 {share:.1%} 计算（--bandwidth-efficiency {share:g}）</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>一个字符串</translation>
    </message>
    <message>
        <source>a user preset &apos;{id}&apos; already exists ({path})</source>
        <translation>用户预设“{id}”已存在（{path}）</translation>
    </message>
    <message>
        <source>a vision tower alone is not split into pipeline stages: set pp to 1</source>
        <translation>单独的视觉塔不切分为流水线阶段：请将 pp 设为 1</translation>
    </message>
    <message>
        <source>active parameters</source>
        <translation>激活参数量</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>一个数组</translation>
    </message>
    <message>
        <source>an indexer needs the q rank: its queries come from the q latent (r_q)</source>
        <translation>索引器需要 q 秩：它的查询来自 q 潜变量（r_q）</translation>
    </message>
    <message>
        <source>an integer of {digits:,} digits (at most {most})</source>
        <translation>整数有 {digits:,} 位（最多 {most} 位）</translation>
    </message>
    <message>
        <source>an integer ≥ {minimum}</source>
        <translation>≥ {minimum} 的整数</translation>
    </message>
    <message>
        <source>an interleaved pipeline needs pipeline stages (pp &gt; 1)</source>
        <translation>交错流水线需要多个流水线阶段（pp &gt; 1）</translation>
    </message>
    <message>
        <source>array items</source>
        <translation>个数组元素</translation>
    </message>
    <message>
        <source>arrays nested more than {most} deep</source>
        <translation>数组嵌套超过 {most} 层</translation>
    </message>
    <message>
        <source>baseline: no column {baseline} among {n}</source>
        <translation>baseline：{n} 列中没有第 {baseline} 列</translation>
    </message>
    <message>
        <source>cannot create {folder}: {exc}</source>
        <translation>无法创建 {folder}：{exc}</translation>
    </message>
    <message>
        <source>cannot create {name}: {why}</source>
        <translation>无法创建 {name}：{why}</translation>
    </message>
    <message>
        <source>cannot delete {path}: {exc}</source>
        <translation>无法删除 {path}：{exc}</translation>
    </message>
    <message>
        <source>cannot remove {path}: {why}</source>
        <translation>无法删除 {path}：{why}</translation>
    </message>
    <message>
        <source>cannot write {path}: it is a folder; give a file name</source>
        <translation>无法写入 {path}：这是一个文件夹；请给出文件名</translation>
    </message>
    <message>
        <source>cannot write {path}: {why}</source>
        <translation>无法写入 {path}：{why}</translation>
    </message>
    <message>
        <source>claims {n:,} tensors; a checkpoint may hold at most {most:,}</source>
        <translation>声称有 {n:,} 个张量；一个检查点最多 {most:,} 个</translation>
    </message>
    <message>
        <source>claims {n:,} {what}, more than the {left:,} bytes left hold</source>
        <translation>声称有 {n:,} {what}，剩余的 {left:,} 字节装不下</translation>
    </message>
    <message>
        <source>compare needs at least one architecture</source>
        <translation>对比至少需要一个架构</translation>
    </message>
    <message>
        <source>decode and a prefill&apos;s weight read at {share:.1%} of the GPU&apos;s peak HBM bandwidth (--bandwidth-efficiency {share:g})</source>
        <translation>解码和预填充读取权重时按 GPU 峰值 HBM 带宽的 {share:.1%} 计算（--bandwidth-efficiency {share:g}）</translation>
    </message>
    <message>
        <source>differs from hidden_size / heads while qk_layernorm is on: Phi&apos;s q/k LayerNorms are h/a wide, which the schema cannot express</source>
        <translation>在开启 qk_layernorm 时不等于 hidden_size / heads：Phi 的 q/k LayerNorm 宽度为 h/a，模型描述无法表达这种结构</translation>
    </message>
    <message>
        <source>ends {end:,} wide, not at the hidden size ({h:,}): end with a linear layer to the hidden size (an empty out width)</source>
        <translation>输出宽度为 {end:,}，不等于隐藏层维度（{h:,}）：请以一个映射到隐藏层维度的线性层结尾（输出宽度留空）</translation>
    </message>
    <message>
        <source>expert parallel size {ep} does not divide the {n} experts</source>
        <translation>专家并行大小 {ep} 不能整除 {n} 个专家</translation>
    </message>
    <message>
        <source>expert parallel size {ep} must divide the {dp} (gpus / (tp·pp))</source>
        <translation>专家并行大小 {ep} 必须整除 {dp}（gpus / (tp·pp)）</translation>
    </message>
    <message>
        <source>expert parallelism needs MoE layers; this model has none</source>
        <translation>专家并行需要 MoE 层；该模型没有</translation>
    </message>
    <message>
        <source>expert parallelism&apos;s all-to-all dispatch and combine buffers (the tokens each GPU sends to and receives from the others, per MoE layer)</source>
        <translation>专家并行的 all-to-all 分发与合并缓冲区（每个 MoE 层中各 GPU 发往和接收自其他 GPU 的 token）</translation>
    </message>
    <message>
        <source>experts per token ({k}) exceed the experts ({n})</source>
        <translation>每个 token 激活的专家数（{k}）超过专家总数（{n}）</translation>
    </message>
    <message>
        <source>field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>general.alignment {alignment} is not a usable alignment</source>
        <translation>general.alignment {alignment} 不是可用的对齐值</translation>
    </message>
    <message>
        <source>given twice in one object (which one is meant?)</source>
        <translation>在同一对象中出现了两次（应以哪个为准？）</translation>
    </message>
    <message>
        <source>gives one hybrid layer: transformers cannot build a Zamba whose shared block has no layer to tie to</source>
        <translation>只给出一个 hybrid 层：共享块没有可绑定的层时，transformers 无法构建 Zamba</translation>
    </message>
    <message>
        <source>gpus.{index}.{reason}</source>
        <translation>gpus.{index}.{reason}</translation>
    </message>
    <message>
        <source>gpus.{index}: {reason}</source>
        <translation>gpus.{index}：{reason}</translation>
    </message>
    <message>
        <source>has {letter} at {index}; a layer is M (Mamba-2), E (MoE), * (attention) or - (MLP)</source>
        <translation>在位置 {index} 处为 {letter}；每层应为 M（Mamba-2）、E（MoE）、*（注意力）或 -（MLP）</translation>
    </message>
    <message>
        <source>header claims {length:,} bytes but the file has {left:,} after the length</source>
        <translation>文件头声称有 {length:,} 字节，但长度字段之后文件只有 {left:,} 字节</translation>
    </message>
    <message>
        <source>header is not a JSON object</source>
        <translation>文件头不是 JSON 对象</translation>
    </message>
    <message>
        <source>header is not valid JSON ({reason}; wrong length or not a safetensors file?)</source>
        <translation>文件头不是有效的 JSON（{reason}；长度有误，或不是 safetensors 文件？）</translation>
    </message>
    <message>
        <source>header of {length:,} bytes; ParamTally reads at most {most:,}</source>
        <translation>文件头有 {length:,} 字节；ParamTally 最多读取 {most:,} 字节</translation>
    </message>
    <message>
        <source>holds a lone surrogate (half of a UTF-16 pair), which is not text</source>
        <translation>含有孤立代理项（UTF-16 代理对的一半），不是合法文本</translation>
    </message>
    <message>
        <source>holds more than {most:,} layer groups, those of its patterns included (at most {most:,} in a stack)</source>
        <translation>包含超过 {most:,} 个层组（含模式中的层组；每个堆栈最多 {most:,} 个）</translation>
    </message>
    <message>
        <source>is above 0: DeBERTa&apos;s convolution layer is not supported</source>
        <translation>大于 0：不支持 DeBERTa 的卷积层</translation>
    </message>
    <message>
        <source>is false with embedding_size ≠ hidden_size: that MLM head cannot run</source>
        <translation>为 false 且 embedding_size ≠ hidden_size：这样的 MLM 头无法运行</translation>
    </message>
    <message>
        <source>is false: transformers 5.24 then builds {model_type} with four V·d_model tables (shared, both stacks&apos; and the head&apos;s), which no published model has; not supported</source>
        <translation>为 false：此时 transformers 5.24 会为 {model_type} 构建四张 V·d_model 的表（共享表、两个堆栈各一张和输出头的一张），没有任何已发布模型如此；不支持</translation>
    </message>
    <message>
        <source>is false; transformers&apos; MPT layers never have biases</source>
        <translation>为 false；transformers 的 MPT 层从不带偏置</translation>
    </message>
    <message>
        <source>is missing and {model_type} has no default for it</source>
        <translation>缺失，且 {model_type} 没有它的默认值</translation>
    </message>
    <message>
        <source>is missing: HunYuanDenseV1Config leaves it null and the model cannot be built</source>
        <translation>缺失：HunYuanDenseV1Config 将其留为 null，模型无法构建</translation>
    </message>
    <message>
        <source>is missing: HunYuanMoEV1Attention reads it and cannot be built without it</source>
        <translation>缺失：HunYuanMoEV1Attention 需要读取它，缺少时无法构建</translation>
    </message>
    <message>
        <source>is needed: Lfm2MoeConfig derives none and the model reads one a layer</source>
        <translation>是必需的：Lfm2MoeConfig 不会推导它，而模型每层都要读取一项</translation>
    </message>
    <message>
        <source>is needed: the class&apos;s own layout has {n:,} layers, num_hidden_layers says {layers:,}</source>
        <translation>是必需的：该类自带的布局有 {n:,} 层，而 num_hidden_layers 为 {layers:,}</translation>
    </message>
    <message>
        <source>is not a known setting</source>
        <translation>不是已知的设置项</translation>
    </message>
    <message>
        <source>is not in the form this field takes</source>
        <translation>格式不符合该字段的要求</translation>
    </message>
    <message>
        <source>is not read by transformers 5.24 (MiniMaxConfig), which then alternates lightning and softmax layers; write the layers as layer_types</source>
        <translation>不被 transformers 5.24（MiniMaxConfig）读取，它会改为让 lightning 层与 softmax 层交替排列；请用 layer_types 写出各层</translation>
    </message>
    <message>
        <source>is null, but DeepSeek-V3.2&apos;s attention and indexer read the q latent</source>
        <translation>为 null，但 DeepSeek-V3.2 的注意力和索引器都要读取 q 的潜在向量</translation>
    </message>
    <message>
        <source>is one window for {n:,} layers (at most {most:,})</source>
        <translation>为 {n:,} 层共用的一个窗口（最多 {most:,} 层）</translation>
    </message>
    <message>
        <source>is required</source>
        <translation>为必填项</translation>
    </message>
    <message>
        <source>is true, which DbrxConfig refuses (DBRX&apos;s head is never tied)</source>
        <translation>为 true，DbrxConfig 不接受（DBRX 的输出头从不绑定）</translation>
    </message>
    <message>
        <source>is true: cross-attention blocks are not supported</source>
        <translation>为 true：不支持交叉注意力块</translation>
    </message>
    <message>
        <source>is true: the embedding has 8 more rows than the head it would tie</source>
        <translation>为 true：嵌入表比要绑定的输出头多 8 行</translation>
    </message>
    <message>
        <source>is true: the masked-image token of pre-training is not read</source>
        <translation>为 true：不读取预训练用的掩码图像 token</translation>
    </message>
    <message>
        <source>is true: {model_type} as a decoder is not supported</source>
        <translation>为 true：不支持将 {model_type} 用作解码器</translation>
    </message>
    <message>
        <source>is {afn}; GPT-1&apos;s activations: {known}</source>
        <translation>为 {afn}；GPT-1 的激活函数只有：{known}</translation>
    </message>
    <message>
        <source>is {kind}, but use_sliding_window, sliding_window and max_window_layers make it {ruled}: a stack whose layers slide otherwise is not read</source>
        <translation>为 {kind}，但 use_sliding_window、sliding_window 和 max_window_layers 决定它应为 {ruled}：不读取以其他方式滑动的层堆栈</translation>
    </message>
    <message>
        <source>is {kind}; ESM&apos;s positions are absolute or rotary</source>
        <translation>为 {kind}；ESM 的位置编码只能是 absolute 或 rotary</translation>
    </message>
    <message>
        <source>is {kind}; LongT5&apos;s encoder attention is local or transient-global</source>
        <translation>为 {kind}；LongT5 编码器的注意力只能是 local 或 transient-global</translation>
    </message>
    <message>
        <source>is {kind}; a nemotron_h layer is {types}</source>
        <translation>为 {kind}；nemotron_h 的层类型应为 {types}</translation>
    </message>
    <message>
        <source>is {kind}; a {model_type} layer is full_attention or sliding_attention</source>
        <translation>为 {kind}；{model_type} 的层类型应为 full_attention 或 sliding_attention</translation>
    </message>
    <message>
        <source>is {kind}; a {model_type} layer is {said}</source>
        <translation>为 {kind}；{model_type} 的层类型应为 {said}</translation>
    </message>
    <message>
        <source>is {named}; a {model_type} reads {accepted}</source>
        <translation>为 {named}；{model_type} 只读取 {accepted}</translation>
    </message>
    <message>
        <source>is {norm_type}; InternViT&apos;s norms are layer_norm or rms_norm</source>
        <translation>为 {norm_type}；InternViT 的归一化只能是 layer_norm 或 rms_norm</translation>
    </message>
    <message>
        <source>is {ratio}; transformers&apos; MptMLP is always 4·d_model wide</source>
        <translation>为 {ratio}；transformers 的 MptMLP 宽度总是 4·d_model</translation>
    </message>
    <message>
        <source>is {value}, too large for a float to hold exactly; write an integer</source>
        <translation>为 {value}，浮点数无法精确表示这么大的值；请写成整数</translation>
    </message>
    <message>
        <source>key heads ({k}) must divide the value heads ({v})</source>
        <translation>键头数（{k}）必须整除值头数（{v}）</translation>
    </message>
    <message>
        <source>largest</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>layer_types lists {n:,} layers, num_hidden_layers says {layers:,}</source>
        <translation>layer_types 列出了 {n:,} 层，而 num_hidden_layers 为 {layers:,}</translation>
    </message>
    <message>
        <source>layer_types must be a list of layer-type names (got {got})</source>
        <translation>layer_types 必须是层类型名称的列表（实际为 {got}）</translation>
    </message>
    <message>
        <source>layer_types[{index}] is {name}, not a layer type transformers knows (e.g. full_attention, sliding_attention, linear_attention, chunked_attention)</source>
        <translation>layer_types[{index}] 为 {name}，不是 transformers 认识的层类型（如 full_attention、sliding_attention、linear_attention、chunked_attention）</translation>
    </message>
    <message>
        <source>layers {first}–{last} are not within 0–{most}</source>
        <translation>第 {first}–{last} 层不在 0–{most} 范围内</translation>
    </message>
    <message>
        <source>learned positions need a table: set the maximum positions above 0</source>
        <translation>可学习位置需要位置表：请将最大位置数设为大于 0</translation>
    </message>
    <message>
        <source>learned positions need a table: set the position rows above 0</source>
        <translation>可学习位置需要位置表：请将位置行数设为大于 0</translation>
    </message>
    <message>
        <source>lists several layers: a Mistral-3 projector of those is not read</source>
        <translation>列出了多个层：不读取基于多层特征的 Mistral-3 投影器</translation>
    </message>
    <message>
        <source>lists several layers: an Aya Vision projector of those is not read</source>
        <translation>列出了多个层：不读取基于多层特征的 Aya Vision 投影器</translation>
    </message>
    <message>
        <source>lists {got:,} windows for {n:,} layers</source>
        <translation>为 {n:,} 层列出了 {got:,} 个窗口</translation>
    </message>
    <message>
        <source>lists {n:,} layers (at most {most:,})</source>
        <translation>列出了 {n:,} 层（最多 {most:,} 层）</translation>
    </message>
    <message>
        <source>lists {n:,} layers, num_hidden_layers says {layers:,}</source>
        <translation>列出了 {n:,} 层，而 num_hidden_layers 为 {layers:,}</translation>
    </message>
    <message>
        <source>lists {n:,} tensors, more than the {left:,} the checkpoint may still hold ({most:,} in a checkpoint)</source>
        <translation>列出了 {n:,} 个张量，超过检查点还能容纳的 {left:,} 个（一个检查点最多 {most:,} 个）</translation>
    </message>
    <message>
        <source>lists {n:,} tensors, more than the {most:,} in a checkpoint</source>
        <translation>列出了 {n:,} 个张量，超过一个检查点最多的 {most:,} 个</translation>
    </message>
    <message>
        <source>local layers need a window: add &apos;, window 1024&apos; (or a clause &apos;window 1024&apos;)</source>
        <translation>局部层需要窗口：请加上“, window 1024”（或子句“window 1024”）</translation>
    </message>
    <message>
        <source>makes {layers:,} layers, num_layers says {n:,}</source>
        <translation>给出 {layers:,} 层，而 num_layers 为 {n:,}</translation>
    </message>
    <message>
        <source>memory per GPU</source>
        <translation>每块 GPU 显存</translation>
    </message>
    <message>
        <source>metadata entries</source>
        <translation>个元数据条目</translation>
    </message>
    <message>
        <source>metadata key {key} given twice</source>
        <translation>元数据键 {key} 出现了两次</translation>
    </message>
    <message>
        <source>model_type {model_type} is not supported (nearest: {near}); open a similar preset ({preset}) and edit it, or give the checkpoint folder to count its weights</source>
        <translation>不支持 model_type {model_type}（最接近：{near}）；请打开相似的预设（{preset}）再修改，或给出检查点文件夹以统计其权重</translation>
    </message>
    <message>
        <source>model_type {model_type} is not supported (nearest: {near}); open a similar preset ({preset}) and edit it; `paramtally count {folder}` counts the folder&apos;s stored weights</source>
        <translation>不支持 model_type {model_type}（最接近：{near}）；请打开相似的预设（{preset}）再修改；`paramtally count {folder}` 统计该文件夹中存储的权重</translation>
    </message>
    <message>
        <source>model_type {model_type} is not supported (nearest: {near}); open a similar preset and edit it, or give the checkpoint folder to count its weights</source>
        <translation>不支持 model_type {model_type}（最接近：{near}）；请打开相似的预设再修改，或给出检查点文件夹以统计其权重</translation>
    </message>
    <message>
        <source>model_type {model_type} is not supported (nearest: {near}); open a similar preset and edit it; `paramtally count {folder}` counts the folder&apos;s stored weights</source>
        <translation>不支持 model_type {model_type}（最接近：{near}）；请打开相似的预设再修改；`paramtally count {folder}` 统计该文件夹中存储的权重</translation>
    </message>
    <message>
        <source>model_type {named} is read as {kind}, the same architecture</source>
        <translation>model_type {named} 按 {kind} 读取，二者架构相同</translation>
    </message>
    <message>
        <source>must be 1/s for a whole s (got {ratio})</source>
        <translation>必须是 1/s，s 为整数（实际为 {ratio}）</translation>
    </message>
    <message>
        <source>must be a finite number</source>
        <translation>必须是有限数</translation>
    </message>
    <message>
        <source>must be a group of settings (a JSON object)</source>
        <translation>必须是一组设置（JSON 对象）</translation>
    </message>
    <message>
        <source>must be a known name ({names}, … {n} in all)</source>
        <translation>必须是已知名称（{names} 等，共 {n} 个）</translation>
    </message>
    <message>
        <source>must be a list</source>
        <translation>必须是列表</translation>
    </message>
    <message>
        <source>must be a list of &apos;mamba&apos; and &apos;hybrid&apos;, one a layer</source>
        <translation>必须是由 &apos;mamba&apos; 和 &apos;hybrid&apos; 组成的列表，每层一项</translation>
    </message>
    <message>
        <source>must be a list of [[kind, …], repeats] entries (got {got})</source>
        <translation>必须是由 [[类型, …], 重复次数] 条目组成的列表（实际为 {got}）</translation>
    </message>
    <message>
        <source>must be a list of [width, height] tile counts</source>
        <translation>必须是 [宽, 高] 分块数的列表</translation>
    </message>
    <message>
        <source>must be a list of c2p/p2c or a string like &apos;p2c|c2p&apos; (got {got})</source>
        <translation>必须是 c2p/p2c 的列表或 &apos;p2c|c2p&apos; 这样的字符串（实际为 {got}）</translation>
    </message>
    <message>
        <source>must be a list of layer indexes (got {got})</source>
        <translation>必须是层索引的列表（实际为 {got}）</translation>
    </message>
    <message>
        <source>must be a list of layer kinds (got {got})</source>
        <translation>必须是层类型的列表（实际为 {got}）</translation>
    </message>
    <message>
        <source>must be a list of layer types, one a layer</source>
        <translation>必须是层类型的列表，每层一项</translation>
    </message>
    <message>
        <source>must be a list of {n} layer-type names</source>
        <translation>必须是含 {n} 个层类型名称的列表</translation>
    </message>
    <message>
        <source>must be a non-empty list of &apos;recurrent&apos; and &apos;attention&apos;</source>
        <translation>必须是由 &apos;recurrent&apos; 和 &apos;attention&apos; 组成的非空列表</translation>
    </message>
    <message>
        <source>must be a number</source>
        <translation>必须是数字</translation>
    </message>
    <message>
        <source>must be a number (got {got})</source>
        <translation>必须是数字（实际为 {got}）</translation>
    </message>
    <message>
        <source>must be a number (transformers refuses null)</source>
        <translation>必须是数字（transformers 不接受 null）</translation>
    </message>
    <message>
        <source>must be a positive integer or a list of one per layer ({n}); got {got}</source>
        <translation>必须是正整数，或每层一项的列表（{n} 层）；实际为 {got}</translation>
    </message>
    <message>
        <source>must be a string (got {got})</source>
        <translation>必须是字符串（实际为 {got}）</translation>
    </message>
    <message>
        <source>must be a whole number</source>
        <translation>必须是整数</translation>
    </message>
    <message>
        <source>must be an object (got {got})</source>
        <translation>必须是对象（实际为 {got}）</translation>
    </message>
    <message>
        <source>must be an object or null (got {got})</source>
        <translation>必须是对象或 null（实际为 {got}）</translation>
    </message>
    <message>
        <source>must be an object such as {{&quot;name&quot;: &quot;silu&quot;}} (got {got})</source>
        <translation>必须是 {{&quot;name&quot;: &quot;silu&quot;}} 这样的对象（实际为 {got}）</translation>
    </message>
    <message>
        <source>must be at least {limit}</source>
        <translation>不能小于 {limit}</translation>
    </message>
    <message>
        <source>must be at most {limit}</source>
        <translation>不能大于 {limit}</translation>
    </message>
    <message>
        <source>must be less than {limit}</source>
        <translation>必须小于 {limit}</translation>
    </message>
    <message>
        <source>must be more than {limit}</source>
        <translation>必须大于 {limit}</translation>
    </message>
    <message>
        <source>must be one of {expected}</source>
        <translation>必须是 {expected} 之一</translation>
    </message>
    <message>
        <source>must be one of {expected}, not &apos;{tag}&apos;</source>
        <translation>必须是 {expected} 之一，而不是“{tag}”</translation>
    </message>
    <message>
        <source>must be one size or a square&apos;s [height, width] (got {got})</source>
        <translation>必须是单个尺寸或正方形的 [高, 宽]（实际为 {got}）</translation>
    </message>
    <message>
        <source>must be text</source>
        <translation>必须是文本</translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation>必须是 true 或 false</translation>
    </message>
    <message>
        <source>must be true or false (got {got})</source>
        <translation>必须是 true 或 false（实际为 {got}）</translation>
    </message>
    <message>
        <source>must be {bound} (got {got})</source>
        <translation>必须是{bound}（实际为 {got}）</translation>
    </message>
    <message>
        <source>must hold even positive integers (got {got})</source>
        <translation>必须为正偶数（得到 {got}）</translation>
    </message>
    <message>
        <source>must hold one 0/1 per layer ({n})</source>
        <translation>必须每层一个 0/1（{n} 层）</translation>
    </message>
    <message>
        <source>must hold one letter a layer (M, E, * or -)</source>
        <translation>必须每层一个字母（M、E、* 或 -）</translation>
    </message>
    <message>
        <source>must list &quot;dense&quot; or &quot;sparse&quot; for each of the {n} layers</source>
        <translation>必须为 {n} 层中的每一层列出 &quot;dense&quot; 或 &quot;sparse&quot;</translation>
    </message>
    <message>
        <source>n_layers: give either n_layers or layers, not both</source>
        <translation>n_layers：n_layers 和 layers 只能给出其一</translation>
    </message>
    <message>
        <source>name one of {names} or a field path</source>
        <translation>请给出 {names} 之一或字段路径</translation>
    </message>
    <message>
        <source>names layer {layer}, outside the {n} layers</source>
        <translation>指定了第 {layer} 层，超出了 {n} 层的范围</translation>
    </message>
    <message>
        <source>names {builder_type}, which no family reads</source>
        <translation>指定了 {builder_type}，但没有模型族能读取它</translation>
    </message>
    <message>
        <source>names {classes}; supported: {known}</source>
        <translation>指定了 {classes}；支持的有：{known}</translation>
    </message>
    <message>
        <source>needs at least 1 layer</source>
        <translation>至少需要 1 层</translation>
    </message>
    <message>
        <source>needs at least {entries}</source>
        <translation>至少需要 {entries}</translation>
    </message>
    <message>
        <source>needs at least {limit} characters</source>
        <translation>至少需要 {limit} 个字符</translation>
    </message>
    <message>
        <source>no base block named &apos;{name}&apos;</source>
        <translation>没有名为“{name}”的基础块</translation>
    </message>
    <message>
        <source>no base block named {name}</source>
        <translation>没有名为 {name} 的基础块</translation>
    </message>
    <message>
        <source>no base block named {name} (blocks: {known})</source>
        <translation>没有名为 {name} 的基础块（现有块：{known}）</translation>
    </message>
    <message>
        <source>no export format &apos;{name}&apos; (there are {names})</source>
        <translation>没有导出格式“{name}”（可用格式：{names}）</translation>
    </message>
    <message>
        <source>no images (0 of {size:,}² pixels): text alone</source>
        <translation>无图像（0 张 {size:,}² 像素）：仅文本</translation>
    </message>
    <message>
        <source>no images (0 of {size:,}² pixels): the weights alone</source>
        <translation>无图像（0 张 {size:,}² 像素）：仅权重</translation>
    </message>
    <message>
        <source>no report language &apos;{language}&apos; (there are {names})</source>
        <translation>没有报告语言“{language}”（可用语言：{names}）</translation>
    </message>
    <message>
        <source>no value is allowed</source>
        <translation>没有允许的取值</translation>
    </message>
    <message>
        <source>no {variable} fits {gpu}: even the {end} allowed value ({value:,}) needs {bytes:,} bytes per GPU of {capacity:,}</source>
        <translation>{variable}没有能放进 {gpu} 的取值：即使取{end}允许值（{value:,}），每块 GPU 也需要 {bytes:,} 字节（可用 {capacity:,} 字节）</translation>
    </message>
    <message>
        <source>no {variable} meets {figure} {op} {threshold}: the {end} allowed value ({value:,}) gives {gives}</source>
        <translation>{variable}没有满足 {figure} {op} {threshold} 的取值：{end}允许值（{value:,}）只得到 {gives}</translation>
    </message>
    <message>
        <source>not a stack&apos;s layer groups</source>
        <translation>不是堆栈的层组</translation>
    </message>
    <message>
        <source>not the address of a layer group</source>
        <translation>不是层组的地址</translation>
    </message>
    <message>
        <source>one block = {n:,}</source>
        <translation>单个块 = {n:,}</translation>
    </message>
    <message>
        <source>one of {names}</source>
        <translation>{names} 之一</translation>
    </message>
    <message>
        <source>one repetition of a pattern may hold at most {most} runs</source>
        <translation>模式的一次重复最多包含 {most} 段</translation>
    </message>
    <message>
        <source>only groups with the same blocks can be merged</source>
        <translation>只有块相同的层组才能合并</translation>
    </message>
    <message>
        <source>pipeline size {pp} exceeds the {n} layers</source>
        <translation>流水线并行大小 {pp} 超过 {n} 层</translation>
    </message>
    <message>
        <source>preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>preset &apos;{id}&apos; would be {size:,} bytes, more than the {most:,} a preset may have; it was not written</source>
        <translation>预设“{id}”将有 {size:,} 字节，超过预设允许的 {most:,} 字节；未写入</translation>
    </message>
    <message>
        <source>presets saved from the window or imported</source>
        <translation>从窗口保存或导入的预设</translation>
    </message>
    <message>
        <source>quantized weights are trained only as a frozen LoRA base (set lora_rank)</source>
        <translation>量化权重只能作为冻结的 LoRA 基座训练（请设置 lora_rank）</translation>
    </message>
    <message>
        <source>smallest</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>steps of {step:,} are too coarse to search</source>
        <translation>步长 {step:,} 太粗，无法搜索</translation>
    </message>
    <message>
        <source>takes at most {entries}</source>
        <translation>最多 {entries}</translation>
    </message>
    <message>
        <source>takes at most {limit} characters</source>
        <translation>最多 {limit} 个字符</translation>
    </message>
    <message>
        <source>tensor parallel size {tp} and the {g} KV heads do not divide each other</source>
        <translation>张量并行大小 {tp} 与 {g} 个 KV 头互不整除</translation>
    </message>
    <message>
        <source>tensor parallel size {tp} does not divide the Mamba width {inner}</source>
        <translation>张量并行大小 {tp} 不能整除 Mamba 宽度 {inner}</translation>
    </message>
    <message>
        <source>tensor parallel size {tp} does not divide the RG-LRU&apos;s {n} gate blocks</source>
        <translation>张量并行大小 {tp} 不能整除 RG-LRU 的 {n} 个门控块</translation>
    </message>
    <message>
        <source>tensor parallel size {tp} does not divide the RWKV&apos;s {a} channels</source>
        <translation>张量并行规模 {tp} 不能整除 RWKV 的 {a} 个通道</translation>
    </message>
    <message>
        <source>tensor parallel size {tp} does not divide the shared transformer&apos;s {a} heads</source>
        <translation>张量并行大小 {tp} 不能整除共享 Transformer 的 {a} 个头</translation>
    </message>
    <message>
        <source>tensor parallel size {tp} does not divide the short conv&apos;s {h} channels</source>
        <translation>张量并行大小 {tp} 不能整除短卷积的 {h} 个通道</translation>
    </message>
    <message>
        <source>tensor parallel size {tp} does not divide the {a} attention heads</source>
        <translation>张量并行大小 {tp} 不能整除 {a} 个注意力头</translation>
    </message>
    <message>
        <source>tensor parallel size {tp} does not divide the {a} lightning-attention heads</source>
        <translation>张量并行规模 {tp} 不能整除 {a} 个 lightning 注意力头</translation>
    </message>
    <message>
        <source>tensor parallel size {tp} does not divide the {k} key and {v} value heads</source>
        <translation>张量并行大小 {tp} 不能整除 {k} 个键头和 {v} 个值头</translation>
    </message>
    <message>
        <source>tensor parallel size {tp} does not divide the {n} SSM heads</source>
        <translation>张量并行大小 {tp} 不能整除 {n} 个 SSM 头</translation>
    </message>
    <message>
        <source>tensor parallel size {tp} neither divides nor is a multiple of the {n} groups</source>
        <translation>张量并行大小 {tp} 既不能整除 {n} 个组，也不是其倍数</translation>
    </message>
    <message>
        <source>the FFN width follows the hidden size only, not {variable}: vary the hidden size to scale it</source>
        <translation>前馈网络宽度只随隐藏层维度缩放，不随 {variable}：请改变隐藏层维度来缩放它</translation>
    </message>
    <message>
        <source>turns ALiBi off; transformers&apos; MPT always uses ALiBi and has no position table</source>
        <translation>关闭了 ALiBi；transformers 的 MPT 总是使用 ALiBi，没有位置表</translation>
    </message>
    <message>
        <source>turns qk_ln on; transformers&apos; MPT builds no q/k LayerNorms</source>
        <translation>开启了 qk_ln；transformers 的 MPT 不构建 q/k LayerNorm</translation>
    </message>
    <message>
        <source>{count}, resized to {height:,}×{width:,}</source>
        <translation>{count}，缩放为 {height:,}×{width:,}</translation>
    </message>
    <message>
        <source>{count}: {patches:,} patches each, encoded by the tower alone (no language model, no KV cache)</source>
        <translation>{count}：每张 {patches:,} 个 patch，仅由视觉塔编码（无语言模型，无 KV 缓存）</translation>
    </message>
    <message>
        <source>{count}: {patches:,} patches each, encoded by the tower alone (no language model, no KV cache), the tower trained</source>
        <translation>{count}：每张 {patches:,} 个 patch，仅由视觉塔编码（无语言模型，无 KV 缓存），视觉塔参与训练</translation>
    </message>
    <message>
        <source>{count}: {where}</source>
        <translation>{count}：{where}</translation>
    </message>
    <message>
        <source>{count}: {where}, the tower frozen</source>
        <translation>{count}：{where}，视觉塔冻结</translation>
    </message>
    <message>
        <source>{count}: {where}, the tower trained</source>
        <translation>{count}：{where}，视觉塔参与训练</translation>
    </message>
    <message>
        <source>{n:,} images of {size:,}² pixels</source>
        <translation>{n:,} 张 {size:,}² 像素的图像</translation>
    </message>
    <message>
        <source>{name}: a scenario field for models with {needs}; {model} has none</source>
        <translation>{name}：此场景字段用于带有 {needs} 的模型；{model} 没有</translation>
    </message>
    <message>
        <source>{key} is no key {kind} reads; counted with the default of {meant} (misspelt?)</source>
        <translation>{key} 不是 {kind} 读取的键；已按 {meant} 的默认值计算（拼写错误？）</translation>
    </message>
    <message>
        <source>× mamba_n_heads must equal the Mamba width {inner}</source>
        <translation>× mamba_n_heads 必须等于 Mamba 宽度 {inner}</translation>
    </message>
    <message>
        <source>× num_heads must equal expand × hidden_size ({inner})</source>
        <translation>× num_heads 必须等于 expand × hidden_size（{inner}）</translation>
    </message>
    <message>
        <source>tensor {tensor} ends at byte {end:,} of a {size:,}-byte data section (truncated?)</source>
        <translation>张量 {tensor} 结束于第 {end:,} 字节，而数据段只有 {size:,} 字节（文件被截断？）</translation>
    </message>
    <message>
        <source>tensor {tensor} has a malformed entry {entry}</source>
        <translation>张量 {tensor} 的条目格式错误：{entry}</translation>
    </message>
    <message>
        <source>tensor {tensor} has data_offsets {offsets}</source>
        <translation>张量 {tensor} 的 data_offsets 为 {offsets}</translation>
    </message>
    <message>
        <source>tensor {tensor} has no dtype/shape/data_offsets</source>
        <translation>张量 {tensor} 缺少 dtype/shape/data_offsets</translation>
    </message>
    <message>
        <source>tensor {tensor} has unknown type {type_id}</source>
        <translation>张量 {tensor} 的类型 {type_id} 未知</translation>
    </message>
    <message>
        <source>tensor {tensor} has {dims} dimensions (1 to {most})</source>
        <translation>张量 {tensor} 有 {dims} 维（应为 1 到 {most}）</translation>
    </message>
    <message>
        <source>tensor {tensor} listed twice</source>
        <translation>张量 {tensor} 出现了两次</translation>
    </message>
    <message>
        <source>tensor {tensor}: {dtype} {shape} needs {needed:,} bytes, its offsets span {span:,}</source>
        <translation>张量 {tensor}：{dtype} {shape} 需要 {needed:,} 字节，而其偏移范围为 {span:,} 字节</translation>
    </message>
    <message>
        <source>tensor {tensor}: {n:,} elements are not whole {kind} blocks</source>
        <translation>张量 {tensor}：{n:,} 个元素不能组成整数个 {kind} 块</translation>
    </message>
    <message>
        <source>tensors</source>
        <translation>个张量</translation>
    </message>
    <message>
        <source>the README, shown by Help → User Guide</source>
        <translation>README，由 帮助 → 用户指南 显示</translation>
    </message>
    <message>
        <source>the first layer of a rule ({first}) is past the last layer ({last})</source>
        <translation>规则的第一层（{first}）超出了最后一层（{last}）</translation>
    </message>
    <message>
        <source>the folder</source>
        <translation>该文件夹</translation>
    </message>
    <message>
        <source>the hidden size ({h:,}) is not a multiple of the {a} heads: change either, or set the head width</source>
        <translation>隐藏层维度（{h:,}）不是 {a} 个头的倍数：请修改其一，或设置头维度</translation>
    </message>
    <message>
        <source>the interleaved schedule needs a multiple of p = {p} micro-batches</source>
        <translation>交错调度需要微批次数为 p = {p} 的倍数</translation>
    </message>
    <message>
        <source>the name {name} {reason}</source>
        <translation>名称 {name} {reason}</translation>
    </message>
    <message>
        <source>the pattern is empty: write e.g. [mamba2 ×7, attention] × 4</source>
        <translation>模式为空：请写如 [mamba2 ×7, attention] × 4</translation>
    </message>
    <message>
        <source>the pattern makes {layers:,} layers; a pattern makes at most {most:,}</source>
        <translation>该模式生成 {layers:,} 层；一个模式最多生成 {most:,} 层</translation>
    </message>
    <message>
        <source>the pattern would fill the stack&apos;s {total:,} layers; a pattern makes at most {most:,}: give it a repeat count</source>
        <translation>该模式将填满堆栈的 {total:,} 层；一个模式最多生成 {most:,} 层：请给出重复次数</translation>
    </message>
    <message>
        <source>the presets shipped with ParamTally (read only)</source>
        <translation>ParamTally 自带的预设（只读）</translation>
    </message>
    <message>
        <source>the rules repeat only every {period:,} layers; a pattern makes at most {most:,}</source>
        <translation>这些规则每 {period:,} 层才重复一次；一个模式最多生成 {most:,} 层</translation>
    </message>
    <message>
        <source>the split point {n} must lie between 1 and {most}</source>
        <translation>拆分点 {n} 必须在 1 到 {most} 之间</translation>
    </message>
    <message>
        <source>the trace of an unexpected error, to attach to a report</source>
        <translation>意外错误的跟踪信息，可附在问题报告中</translation>
    </message>
    <message>
        <source>the {holder} needs at least one layer group</source>
        <translation>{holder} 至少需要一个层组</translation>
    </message>
    <message>
        <source>the {part} is of its own kind here: reset its kind</source>
        <translation>此处的 {part} 使用了自己的类型：请重置其类型</translation>
    </message>
    <message>
        <source>there is no layer group {n} (there are {count})</source>
        <translation>没有第 {n} 个层组（共 {count} 个）</translation>
    </message>
    <message>
        <source>this block has no {part}</source>
        <translation>此块没有 {part}</translation>
    </message>
    <message>
        <source>this model has no multi-token prediction modules</source>
        <translation>该模型没有多 token 预测（MTP）模块</translation>
    </message>
    <message>
        <source>this model has no {stack} stack</source>
        <translation>该模型没有 {stack} 堆栈</translation>
    </message>
    <message>
        <source>total parameters</source>
        <translation>总参数量</translation>
    </message>
    <message>
        <source>training keeps trainable weights in fp32, bf16 or fp16, not {dtype}</source>
        <translation>训练时可训练权重须为 fp32、bf16 或 fp16，而不是 {dtype}</translation>
    </message>
    <message>
        <source>training time</source>
        <translation>训练时长</translation>
    </message>
    <message>
        <source>transformers&apos; PyTorch path for the {name} layers — the figure assumes the {kernels} CUDA kernels; without them transformers keeps fp32 scan tensors, {ratio}× the figure as measured for {case}</source>
        <translation>transformers 对 {name} 层的 PyTorch 实现路径——此数值假定使用 {kernels} CUDA 算子；没有这些算子时 transformers 会保留 fp32 扫描张量，实测为此数值的 {ratio}×（{case}）</translation>
    </message>
    <message>
        <source>try `paramtally presets list`</source>
        <translation>可运行 `paramtally presets list` 查看</translation>
    </message>
    <message>
        <source>type a number: {example}</source>
        <translation>请输入数字：{example}</translation>
    </message>
    <message>
        <source>unknown array item type {kind}</source>
        <translation>未知的数组元素类型 {kind}</translation>
    </message>
    <message>
        <source>unknown value type {kind}</source>
        <translation>未知的值类型 {kind}</translation>
    </message>
    <message>
        <source>unknown {kind} &apos;{name}&apos;</source>
        <translation>未知的 {kind}“{name}”</translation>
    </message>
    <message>
        <source>unknown {kind} &apos;{name}&apos; (did you mean {names}?)</source>
        <translation>未知的 {kind}“{name}”（您是想输入 {names} 吗？）</translation>
    </message>
    <message>
        <source>unknown {kind} &apos;{name}&apos; ({hint})</source>
        <translation>未知的 {kind}“{name}”（{hint}）</translation>
    </message>
    <message>
        <source>with this group the model has more than {most:,} runs of layers ({before:,} before it), at most {most:,} allowed: a run is consecutive layers of one block, a pattern&apos;s runs counted once however often it repeats</source>
        <translation>加上该层组后模型的层段超过 {most:,} 段（此前已有 {before:,} 段），最多允许 {most:,} 段：一段指同一块的连续层，模式无论重复多少次，其层段只计一次</translation>
    </message>
    <message>
        <source>written by `paramtally desktop-entry install`</source>
        <translation>由 `paramtally desktop-entry install` 写入</translation>
    </message>
    <message>
        <source>{count} × ({formula}) = {params:,}</source>
        <translation>{count} × ({formula}) = {params:,}</translation>
    </message>
    <message>
        <source>{dp} data-parallel GPUs each hold the whole model and its training states (ZeRO-0); ZeRO 1–3 shard them. The GPU table&apos;s layout for {gpus} GPUs: {suggested}.</source>
        <translation>{dp} 个数据并行 GPU 各自保存完整模型及其训练状态（ZeRO-0）；ZeRO 1–3 会将其切分。GPU 表对 {gpus} 个 GPU 的布局：{suggested}。</translation>
    </message>
    <message>
        <source>{figure} is not monotone in {variable} ({a} at {a_value:,}, {b} at {b_value:,}); no single value is the answer</source>
        <translation>{figure}随{variable}的变化不单调（取 {a_value:,} 时为 {a}，取 {b_value:,} 时为 {b}）；没有唯一的答案</translation>
    </message>
    <message>
        <source>{flag}: &apos;{spec}&apos; is not FIRST:LAST:STEP (whole numbers, FIRST ≤ LAST, STEP ≥ 1) nor a list</source>
        <translation>{flag}：“{spec}”既不是 起始:结束:步长（整数，起始 ≤ 结束，步长 ≥ 1），也不是列表</translation>
    </message>
    <message>
        <source>{flag}: &apos;{text}&apos; is not FIELD=FIRST:LAST:STEP or FIELD=V1,V2,…</source>
        <translation>{flag}：“{text}”不是 字段=起始:结束:步长 或 字段=V1,V2,…</translation>
    </message>
    <message>
        <source>{flag}: {name} needs 1 to {most} values</source>
        <translation>{flag}：{name} 需要 1 到 {most} 个取值</translation>
    </message>
    <message>
        <source>{flag}: {name} would have more than {most} values</source>
        <translation>{flag}：{name} 的取值会超过 {most} 个</translation>
    </message>
    <message>
        <source>{file} metadata</source>
        <translation>{file} 元数据</translation>
    </message>
    <message>
        <source>the hidden size, the multiple and the multiplier must be above 0</source>
        <translation>隐藏层维度、倍数和乘数都必须大于 0</translation>
    </message>
    <message>
        <source>the number {token} is out of range</source>
        <translation>数值 {token} 超出范围</translation>
    </message>
    <message>
        <source>the per-layer table would have {count:,} rows (at most {most:,}); the breakdown by term gives every figure per group</source>
        <translation>逐层表将有 {count:,} 行（最多 {most:,} 行）；按项分解会按层组给出每个数值</translation>
    </message>
    <message>
        <source>unknown preset &apos;{preset_id}&apos; (try `paramtally presets list`)</source>
        <translation>未知的预设“{preset_id}”（可运行 `paramtally presets list` 查看）</translation>
    </message>
    <message>
        <source>{folder}: cannot read the user presets ({exc}); built-in presets still work</source>
        <translation>{folder}：无法读取用户预设（{exc}）；内置预设仍可使用</translation>
    </message>
    <message>
        <source>{gpus} GPUs as {dp} copies of the model ({in_force}), the routed experts split over EP {ep}: each GPU holds the rest whole and 1/{ep} of the experts.</source>
        <translation>{gpus} 个 GPU 组成 {dp} 个模型副本（{in_force}），路由专家按 EP {ep} 切分：每个 GPU 保存其余部分的完整副本和 1/{ep} 的专家。</translation>
    </message>
    <message>
        <source>{gpus} GPUs as {dp} copies of the model ({in_force}): each GPU holds a whole copy, so the memory per GPU does not shrink. One copy over all of them: {suggested} (set {sizes}).</source>
        <translation>{gpus} 个 GPU 组成 {dp} 个模型副本（{in_force}）：每个 GPU 保存一个完整副本，因此单卡显存不会减少。将一个副本分布到所有 GPU 上：{suggested}（设置{sizes}）。</translation>
    </message>
    <message>
        <source>{gpus} GPUs hold one copy of the model ({in_force}); a new GPU count is laid out as in the GPU setups table, keeping a tensor, pipeline or expert parallel size you set.</source>
        <translation>{gpus} 个 GPU 共同保存一个模型副本（{in_force}）；新的 GPU 数量会按 GPU 配置表布局，并保留您设置的张量、流水线或专家并行大小。</translation>
    </message>
    <message>
        <source>{gpus} cannot be split into tp·pp = {n} groups</source>
        <translation>{gpus} 无法分成 tp·pp = {n} 组</translation>
    </message>
    <message>
        <source>{gpus} with {said} as set: {words}{more}</source>
        <translation>{gpus}，按设定的 {said}：{words}{more}</translation>
    </message>
    <message>
        <source>{gpus}: laid out as {words}</source>
        <translation>{gpus}：布局为 {words}</translation>
    </message>
    <message>
        <source>{head}{how}{more}</source>
        <translation>{head}{how}{more}</translation>
    </message>
    <message>
        <source>{index}: lists {tensor} but no shard holds it</source>
        <translation>{index}：列出了 {tensor}，但没有分片包含它</translation>
    </message>
    <message>
        <source>{index}: names shard(s) not in the folder: {names}</source>
        <translation>{index}：指定的分片不在文件夹中：{names}</translation>
    </message>
    <message>
        <source>{index}: not a valid index (needs a &apos;weight_map&apos; object of file names)</source>
        <translation>{index}：不是有效的索引（需要由文件名组成的“weight_map”对象）</translation>
    </message>
    <message>
        <source>{key} is not set in a {kind} config.json: the config derives it from the layer periods and indexes (transformers refuses a file that sets it)</source>
        <translation>{kind} 的 config.json 不设置 {key}：配置会根据层的周期和索引推导它（transformers 会拒绝设置了它的文件）</translation>
    </message>
    <message>
        <source>{key}: also given as {section}.{field}</source>
        <translation>{key}：同时以 {section}.{field} 给出</translation>
    </message>
    <message>
        <source>{n:,} GPUs</source>
        <translation>{n:,} 个 GPU</translation>
    </message>
    <message>
        <source>{n:,} data-parallel GPUs</source>
        <translation>{n:,} 个数据并行 GPU</translation>
    </message>
    <message>
        <source>{n:,} repetitions</source>
        <translation>{n:,} 次重复</translation>
    </message>
    <message>
        <source>{named_by}: names {n:,} shard files, more than the {most:,} read</source>
        <translation>{named_by}：指定了 {n:,} 个分片文件，超过可读取的 {most:,} 个</translation>
    </message>
    <message>
        <source>{named_by}: names {name}</source>
        <translation>{named_by}：指定了 {name}</translation>
    </message>
    <message>
        <source>{name}: GGUF version {version} is not supported (2 or 3)</source>
        <translation>{name}：不支持 GGUF 版本 {version}（支持 2 或 3）</translation>
    </message>
    <message>
        <source>{name}: a symbolic link that cannot be followed ({exc})</source>
        <translation>{name}：无法跟随的符号链接（{exc}）</translation>
    </message>
    <message>
        <source>{name}: a symbolic link to {target}, which does not exist</source>
        <translation>{name}：指向 {target} 的符号链接，目标不存在</translation>
    </message>
    <message>
        <source>{name}: cannot read ({exc})</source>
        <translation>{name}：无法读取（{exc}）</translation>
    </message>
    <message>
        <source>{name}: cannot read ({why})</source>
        <translation>{name}：无法读取（{why}）</translation>
    </message>
    <message>
        <source>{name}: corrupt GGUF header: {reason}</source>
        <translation>{name}：GGUF 文件头已损坏：{reason}</translation>
    </message>
    <message>
        <source>{name}: no such field in {model}</source>
        <translation>{name}：{model} 中没有此字段</translation>
    </message>
    <message>
        <source>{name}: not a GGUF file (magic {magic}, expected {expected})</source>
        <translation>{name}：不是 GGUF 文件（魔数为 {magic}，应为 {expected}）</translation>
    </message>
    <message>
        <source>{name}: not a valid safetensors file: {reason}</source>
        <translation>{name}：不是有效的 safetensors 文件：{reason}</translation>
    </message>
    <message>
        <source>{name}: not an integer field (it holds {current})</source>
        <translation>{name}：不是整数字段（其值为 {current}）</translation>
    </message>
    <message>
        <source>{name}: reads as a Hugging Face config.json without its model_type; add it (e.g. &quot;model_type&quot;: &quot;llama&quot;) so the importer knows the model family</source>
        <translation>{name}：看起来是缺少 model_type 的 Hugging Face config.json；请补上（如 &quot;model_type&quot;: &quot;llama&quot;），以便导入器识别模型系列</translation>
    </message>
    <message>
        <source>{name}: tensor {tensor} runs past the end of the file (truncated?)</source>
        <translation>{name}：张量 {tensor} 超出了文件末尾（文件被截断？）</translation>
    </message>
    <message>
        <source>{name}: the model has no {what}</source>
        <translation>{name}：该模型没有{what}</translation>
    </message>
    <message>
        <source>{name}: the model has no {what} (its {instead})</source>
        <translation>{name}：该模型没有{what}（它有的是{instead}）</translation>
    </message>
    <message>
        <source>{name}: the {what} differ ({listed}); vary one of them by its field path instead</source>
        <translation>{name}：各处的{what}不同（{listed}）；请改用字段路径变动其中一个</translation>
    </message>
    <message>
        <source>{name}: {kind}, not a regular file</source>
        <translation>{name}：{kind}，不是普通文件</translation>
    </message>
    <message>
        <source>{name}: {size:,} bytes or more is larger than the {limit:,} allowed</source>
        <translation>{name}：{size:,} 字节或更多，超过允许的 {limit:,} 字节</translation>
    </message>
    <message>
        <source>{name}: {value:,} layers are not a whole number of the group&apos;s repetitions</source>
        <translation>{name}：{value:,} 层不是该层组重复次数的整数倍</translation>
    </message>
    <message>
        <source>{n} SSM heads do not divide the inner width {inner}</source>
        <translation>{n} 个 SSM 头不能整除内部宽度 {inner}</translation>
    </message>
    <message>
        <source>{n} entries</source>
        <translation>{n} 项</translation>
    </message>
    <message>
        <source>{n} gate blocks do not divide the recurrence width {inner}</source>
        <translation>{n} 个门控块不能整除循环宽度 {inner}</translation>
    </message>
    <message>
        <source>{one} or {other}</source>
        <translation>{one} 或 {other}</translation>
    </message>
    <message>
        <source>{origin}: a preset must be a JSON object</source>
        <translation>{origin}：预设必须是 JSON 对象</translation>
    </message>
    <message>
        <source>{origin}: expected a JSON object with a &apos;gpus&apos; list</source>
        <translation>{origin}：应为含 &apos;gpus&apos; 列表的 JSON 对象</translation>
    </message>
    <message>
        <source>{origin}: lists {n:,} GPUs, more than the {most:,} a catalog may hold</source>
        <translation>{origin}：列出了 {n:,} 个 GPU，超过目录最多可容纳的 {most:,} 个</translation>
    </message>
    <message>
        <source>{origin}: nested more than {most} levels deep</source>
        <translation>{origin}：嵌套超过 {most} 层</translation>
    </message>
    <message>
        <source>{origin}: no migration from schema version {version}</source>
        <translation>{origin}：没有从模式版本 {version} 升级的迁移</translation>
    </message>
    <message>
        <source>{origin}: no top-level tie_word_embeddings: read untied, as its text model is and the published checkpoints keep lm_head (transformers 5.24 builds {model_type} files without the key tied)</source>
        <translation>{origin}：顶层没有 tie_word_embeddings：按不绑定读取，与其文本模型一致，且已发布的检查点保留了 lm_head（transformers 5.24 会将缺少该键的 {model_type} 文件构建为绑定）</translation>
    </message>
    <message>
        <source>{origin}: not UTF-8 text (byte {at})</source>
        <translation>{origin}：不是 UTF-8 文本（第 {at} 字节）</translation>
    </message>
    <message>
        <source>{origin}: not valid JSON ({why} {where})</source>
        <translation>{origin}：不是有效的 JSON（{why} {where}）</translation>
    </message>
    <message>
        <source>{origin}: schema_version must be a whole number, not {got}</source>
        <translation>{origin}：schema_version 必须是整数，而不是 {got}</translation>
    </message>
    <message>
        <source>{origin}: the saved scenario was skipped (scenario.{reason})</source>
        <translation>{origin}：已跳过保存的场景（scenario.{reason}）</translation>
    </message>
    <message>
        <source>{origin}: written by a newer ParamTally (schema {version}; this one reads up to {newest}); the file was left as it is</source>
        <translation>{origin}：由更新版本的 ParamTally 写入（模式版本 {version}；本版本最多读取到 {newest}）；文件保持原样未改动</translation>
    </message>
    <message>
        <source>{path} already exists (use --force to replace it)</source>
        <translation>{path} 已存在（使用 --force 替换）</translation>
    </message>
    <message>
        <source>{path} is a folder, not a preset file; ParamTally deletes only files</source>
        <translation>{path} 是文件夹，不是预设文件；ParamTally 只删除文件</translation>
    </message>
    <message>
        <source>{path} is a folder; give a file name</source>
        <translation>{path} 是文件夹；请给出文件名</translation>
    </message>
    <message>
        <source>{path}: a weights file, not an architecture (a preset JSON or config.json): `paramtally count` counts its stored parameters, as File → Open Folder… does for its folder</source>
        <translation>{path}：这是权重文件，不是架构（预设 JSON 或 config.json）：`paramtally count` 统计其存储的参数量，“文件 → 打开文件夹…”打开其所在文件夹时亦然</translation>
    </message>
    <message>
        <source>{path}: cannot list the folder ({why})</source>
        <translation>{path}：无法列出文件夹内容（{why}）</translation>
    </message>
    <message>
        <source>{path}: cannot open the folder ({exc})</source>
        <translation>{path}：无法打开文件夹（{exc}）</translation>
    </message>
    <message>
        <source>{path}: expected a model folder, a .safetensors or a .gguf file</source>
        <translation>{path}：应为模型文件夹、.safetensors 或 .gguf 文件</translation>
    </message>
    <message>
        <source>{path}: folder holds no config.json</source>
        <translation>{path}：文件夹中没有 config.json</translation>
    </message>
    <message>
        <source>{path}: holds {n:,} .gguf files ({named}); name one of them</source>
        <translation>{path}：包含 {n:,} 个 .gguf 文件（{named}）；请指定其中一个</translation>
    </message>
    <message>
        <source>{path}: no *.safetensors (or exactly one .gguf) in this folder</source>
        <translation>{path}：此文件夹中没有 *.safetensors（也没有恰好一个 .gguf）</translation>
    </message>
    <message>
        <source>{path}: no such file</source>
        <translation>{path}：文件不存在</translation>
    </message>
    <message>
        <source>{path}: no such file or folder</source>
        <translation>{path}：文件或文件夹不存在</translation>
    </message>
    <message>
        <source>{path}: tensor {tensor} is stored in more than one shard</source>
        <translation>{path}：张量 {tensor} 存储在多个分片中</translation>
    </message>
    <message>
        <source>{path}: {key} {reason}</source>
        <translation>{path}：{key} {reason}</translation>
    </message>
    <message>
        <source>{path}: {problem}; entry skipped</source>
        <translation>{path}：{problem}；已跳过该条目</translation>
    </message>
    <message>
        <source>{path}: {problem}; entry skipped (and {more:,} more entries)</source>
        <translation>{path}：{problem}；已跳过该条目（另有 {more:,} 个条目）</translation>
    </message>
    <message>
        <source>{path}: {reason}</source>
        <translation>{path}：{reason}</translation>
    </message>
    <message>
        <source>{pp}·{v} pipeline chunks exceed the {n} layers</source>
        <translation>{pp}·{v} 个流水线分块超过 {n} 层</translation>
    </message>
    <message>
        <source>{problem}; file ignored, using the built-in GPUs</source>
        <translation>{problem}；已忽略该文件，使用内置 GPU</translation>
    </message>
    <message>
        <source>{reason} (and {more} more)</source>
        <translation>{reason}（另有 {more} 处）</translation>
    </message>
    <message>
        <source>{reason}, not &apos;{value}&apos;</source>
        <translation>{reason}，而不是“{value}”</translation>
    </message>
    <message>
        <source>{role}_layers: the model has no {role}</source>
        <translation>{role}_layers：该模型没有 {role}</translation>
    </message>
    <message>
        <source>{said} does not fit {gpus}: laid out as {words}</source>
        <translation>{said} 放不进 {gpus}：布局为 {words}</translation>
    </message>
    <message>
        <source>{said}. The {gpus} GPUs hold one copy of the model ({in_force}); a tensor, pipeline or expert parallel size you set is kept when the GPU count changes.</source>
        <translation>{said}。{gpus} 个 GPU 共同保存一个模型副本（{in_force}）；更改 GPU 数量时会保留您设置的张量、流水线或专家并行大小。</translation>
    </message>
    <message>
        <source>{said}. {advice}</source>
        <translation>{said}。{advice}</translation>
    </message>
    <message>
        <source>{title} ({name})</source>
        <translation>{title}（{name}）</translation>
    </message>
    <message>
        <source>{size} bytes is too short for a safetensors header</source>
        <translation>{size} 字节太短，放不下 safetensors 文件头</translation>
    </message>
    <message>
        <source>{title} cannot be exported as {format}</source>
        <translation>{title} 无法导出为 {format}</translation>
    </message>
    <message>
        <source>{title} has no JSON form</source>
        <translation>{title} 没有 JSON 形式</translation>
    </message>
    <message>
        <source>{title} is drawn by the window: no text to write</source>
        <translation>{title} 由窗口绘制：没有可写出的文本</translation>
    </message>
    <message>
        <source>{title}: {n} tables, not one; choose one table or JSON</source>
        <translation>{title}：有 {n} 张表而不是一张；请选择一张表或 JSON</translation>
    </message>
    <message>
        <source>{tokens:,} tokens in the context ({patches:,} patches in the tower per image)</source>
        <translation>上下文中 {tokens:,} 个 token（每张图像在视觉塔中 {patches:,} 个 patch）</translation>
    </message>
    <message>
        <source>{tokens:,} tokens read by cross-attention ({patches:,} patches in the tower per image)</source>
        <translation>交叉注意力读取 {tokens:,} 个 token（每张图像在视觉塔中 {patches:,} 个 patch）</translation>
    </message>
    <message>
        <source>{token} is not a number JSON allows</source>
        <translation>{token} 不是 JSON 允许的数字</translation>
    </message>
    <message>
        <source>{total:,} parameters
{detail}</source>
        <translation>{total:,} 个参数
{detail}</translation>
    </message>
    <message>
        <source>{total:,} parameters
{layers:,} layers (F2 or double-click to change the count)</source>
        <translation>{total:,} 个参数
{layers:,} 层（按 F2 或双击修改层数）</translation>
    </message>
    <message>
        <source>{total:,} parameters
{repetitions} (F2 or double-click to change)</source>
        <translation>{total:,} 个参数
{repetitions}（按 F2 或双击修改）</translation>
    </message>
    <message>
        <source>{total:,} parameters in its layers (its input and final norm are counted apart)</source>
        <translation>其各层共 {total:,} 个参数（输入部分和最终归一化另计）</translation>
    </message>
    <message>
        <source>{total:,} parameters, counted apart from the total (transformers does not build them)</source>
        <translation>{total:,} 个参数，不计入总数（transformers 不构建它们）</translation>
    </message>
    <message>
        <source>{typed}…: a number here has at most {n} digits</source>
        <translation>{typed}…：此处的数字最多 {n} 位</translation>
    </message>
    <message>
        <source>{types} (or the older {older})</source>
        <translation>{types}（或旧名称 {older}）</translation>
    </message>
    <message>
        <source>{variable} = {value:,}: {reason}</source>
        <translation>{variable} = {value:,}：{reason}</translation>
    </message>
    <message>
        <source>{variable} = {value:,}: {reason} (a field path is searched over every whole number; --multiple-of narrows it)</source>
        <translation>{variable} = {value:,}：{reason}（字段路径会在所有整数上搜索；可用 --multiple-of 缩小范围）</translation>
    </message>
    <message>
        <source>{variable} does not change the {figure} ({here} at {value:,} and on either side)</source>
        <translation>{variable}不改变{figure}（取 {value:,} 及其两侧时都是 {here}）</translation>
    </message>
    <message>
        <source>{variable}: no value is allowed ({constraint})</source>
        <translation>{variable}：没有允许的取值（{constraint}）</translation>
    </message>
    <message>
        <source>{variable}: no value that is a multiple of {step} is allowed ({constraint})</source>
        <translation>{variable}：没有允许的 {step} 的倍数（{constraint}）</translation>
    </message>
    <message>
        <source>{what} needs {n:,} bytes at byte {start:,}, past the end (truncated?)</source>
        <translation>{what}在第 {start:,} 字节处需要 {n:,} 字节，超出了文件末尾（文件被截断？）</translation>
    </message>
    <message>
        <source>{what} {value:,} is not a multiple of {tile}, so GPU matrix tiles run partly idle; {padded:,} would be (a multiple of 128 is better still)</source>
        <translation>{what} {value:,} 不是 {tile} 的倍数，GPU 矩阵分块会部分空闲；{padded:,} 则是（128 的倍数更好）</translation>
    </message>
    <message>
        <source>{where}, not a file name inside {folder}; refused</source>
        <translation>{where}，不是 {folder} 内的文件名；已拒绝</translation>
    </message>
    <message>
        <source>{where}, which cannot be resolved ({error}: {exc}); refused</source>
        <translation>{where}，无法解析（{error}：{exc}）；已拒绝</translation>
    </message>
    <message>
        <source>{where}, which holds a NUL byte, not a file name; refused</source>
        <translation>{where}，含有 NUL 字节，不是文件名；已拒绝</translation>
    </message>
    <message>
        <source>{where}, which leads outside the folder (to {target}); only files inside {folder} are read</source>
        <translation>{where}，指向文件夹之外（{target}）；只读取 {folder} 内的文件</translation>
    </message>
</context>
<context>
    <name>DesignSpace</name>
    <message>
        <source>levels, e.g. 7B, 10B</source>
        <translation>取值，如 7B, 10B</translation>
    </message>
    <message>
        <source>Draw a line where the figure crosses each level (comma-separated)</source>
        <translation>在数值穿过每个取值处画线（逗号分隔）</translation>
    </message>
    <message>
        <source>&amp;Fits on</source>
        <translation>放得下(&amp;F)</translation>
    </message>
    <message>
        <source>Fade the variants that do not fit this GPU setup and draw the boundary</source>
        <translation>淡化放不下此 GPU 配置的变体并画出边界</translation>
    </message>
    <message>
        <source>&amp;X:</source>
        <translation>&amp;X：</translation>
    </message>
    <message>
        <source>&amp;Y:</source>
        <translation>&amp;Y：</translation>
    </message>
    <message>
        <source>&amp;Colour:</source>
        <translation>颜色(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Iso-lines:</source>
        <translation>等值线(&amp;I)：</translation>
    </message>
    <message>
        <source>Point at a cell to see its figures; click it to load that variant.</source>
        <translation>指向单元格查看其数值；点击可载入该变体。</translation>
    </message>
    <message>
        <source>Ex&amp;port</source>
        <translation>导出(&amp;P)</translation>
    </message>
    <message>
        <source>FIRST:LAST:STEP (the last included) or a list V1,V2,…; Enter to sweep</source>
        <translation>起始:结束:步长（含结束值）或列表 V1,V2,…；按 Enter 扫描</translation>
    </message>
    <message>
        <source> Finding which variants fit {setup}…</source>
        <translation> 正在查找哪些变体放得下 {setup}…</translation>
    </message>
    <message>
        <source>exact from the calculator&apos;s terms</source>
        <translation>由计算器各项精确得出</translation>
    </message>
    <message>
        <source>exact; some cells counted one by one</source>
        <translation>精确；部分单元格逐个计算</translation>
    </message>
    <message>
        <source>every cell counted</source>
        <translation>逐个计算每个单元格</translation>
    </message>
    <message>
        <source>{figure} over {columns} × {rows} variants ({allowed} allowed), {how}: {evaluated} evaluated, {ms} ms.</source>
        <translation>{figure}，共 {columns} × {rows} 个变体（{allowed} 个有效），{how}：计算 {evaluated} 次，{ms} ms。</translation>
    </message>
    <message>
        <source> {fitting} fit {setup}, found in {ms} ms (red line: the boundary; faded: does not fit).</source>
        <translation> {fitting} 个放得下 {setup}，用时 {ms} ms（红线：边界；淡色：放不下）。</translation>
    </message>
    <message>
        <source> Ring: the open model.</source>
        <translation> 圆圈：当前模型。</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>There is no design space to export.</source>
        <translation>没有可导出的设计空间。</translation>
    </message>
    <message>
        <source> — click to load it</source>
        <translation> — 点击载入</translation>
    </message>
    <message>
        <source>Design space: {x} = {x_value}, {y} = {y_value}</source>
        <translation>设计空间：{x} = {x_value}，{y} = {y_value}</translation>
    </message>
    <message>
        <source>; faded: does not fit {setup}</source>
        <translation>；淡色：放不下 {setup}</translation>
    </message>
    <message>
        <source>Design space — {about}</source>
        <translation>设计空间 — {about}</translation>
    </message>
    <message>
        <source>{where}: no such variant (the schema refuses this pair)</source>
        <translation>{where}：没有这样的变体（模式不接受这一对取值）</translation>
    </message>
    <message>
        <source> in the scenario&apos;s layout</source>
        <translation>（按场景的并行布局）</translation>
    </message>
    <message>
        <source>total {value}</source>
        <translation>总参数量 {value}</translation>
    </message>
    <message>
        <source>active {value}</source>
        <translation>激活参数量 {value}</translation>
    </message>
    <message>
        <source>memory per GPU {value}</source>
        <translation>每块 GPU 显存 {value}</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>{where}: {figures}</source>
        <translation>{where}：{figures}</translation>
    </message>
    <message>
        <source>fits {setup}</source>
        <translation>可放入 {setup}</translation>
    </message>
    <message>
        <source>does not fit {setup}</source>
        <translation>放不进 {setup}</translation>
    </message>
    <message>
        <source>{verdict} as {layout} ({per_gpu} per GPU)</source>
        <translation>{verdict}，布局 {layout}（每块 GPU {per_gpu}）</translation>
    </message>
    <message>
        <source>{verdict}: at best {per_gpu} per GPU, as {layout}</source>
        <translation>{verdict}：最好也要每块 GPU {per_gpu}，布局 {layout}</translation>
    </message>
</context>
<context>
    <name>Dialogs</name>
    <message>
        <source>&amp;OK</source>
        <translation>确定(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Don&apos;t Save</source>
        <translation>不保存(&amp;D)</translation>
    </message>
</context>
<context>
    <name>Explore</name>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Architectures side by side</source>
        <translation>并排对比多个架构</translation>
    </message>
    <message>
        <source>Design space</source>
        <translation>设计空间</translation>
    </message>
    <message>
        <source>A figure over two fields of the open model</source>
        <translation>当前模型在两个字段上的取值图</translation>
    </message>
    <message>
        <source>Pinned {label}: see the Compare tab</source>
        <translation>已固定 {label}：请看“对比”标签页</translation>
    </message>
    <message>
        <source>&amp;Pin Open Model for Comparison</source>
        <translation>固定当前模型以供对比(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>对比(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Goal Seek…</source>
        <translation>目标求解(&amp;G)…</translation>
    </message>
    <message>
        <source>&amp;Design Space</source>
        <translation>设计空间(&amp;D)</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <source>Breakdown</source>
        <translation>分解表</translation>
    </message>
    <message>
        <source>Per-layer table</source>
        <translation>逐层表</translation>
    </message>
    <message>
        <source>Memory terms</source>
        <translation>显存各项</translation>
    </message>
    <message>
        <source>GPU setups</source>
        <translation>GPU 配置</translation>
    </message>
    <message>
        <source>Everything</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Bar chart</source>
        <translation>柱状图</translation>
    </message>
    <message>
        <source>Pie chart</source>
        <translation>饼图</translation>
    </message>
    <message>
        <source>Memory chart</source>
        <translation>显存图</translation>
    </message>
    <message>
        <source>CSV for &amp;Excel (UTF-8 with byte-order mark)</source>
        <translation>适用于 &amp;Excel 的 CSV（带 BOM 的 UTF-8）</translation>
    </message>
    <message>
        <source>Excel reads a CSV without a byte-order mark in the local code page and garbles ·, ² and ×</source>
        <translation>Excel 会以本地代码页读取不带 BOM 的 CSV，导致 ·、² 和 × 乱码</translation>
    </message>
    <message>
        <source>{what} as &amp;{format}…</source>
        <translation>{what}导出为 &amp;{format}…</translation>
    </message>
    <message>
        <source>Export {what} as {format}</source>
        <translation>将{what}导出为 {format}</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Export design report</source>
        <translation>导出设计报告</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>{what} as {format}…</source>
        <translation>{what}导出为 {format}…</translation>
    </message>
    <message>
        <source>Design &amp;report…</source>
        <translation>设计报告(&amp;R)…</translation>
    </message>
    <message>
        <source>The derivation, memory, GPU setups and FLOPs as one HTML page or Markdown</source>
        <translation>推导过程、显存、GPU 配置与 FLOPs，写成一个 HTML 页面或 Markdown</translation>
    </message>
    <message>
        <source>Exported {path}</source>
        <translation>已导出 {path}</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Design space</source>
        <translation>设计空间</translation>
    </message>
    <message>
        <source>Heatmap</source>
        <translation>热力图</translation>
    </message>
</context>
<context>
    <name>FfnWidth</name>
    <message>
        <source>FFN width from the hidden size</source>
        <translation>由隐藏层维度计算前馈网络宽度</translation>
    </message>
    <message>
        <source>LLaMA&apos;s ffn_dim_multiplier (Llama 3: 1.3; Llama 3.1 405B: 1.2)</source>
        <translation>LLaMA 的 ffn_dim_multiplier（Llama 3：1.3；Llama 3.1 405B：1.2）</translation>
    </message>
    <message>
        <source>LLaMA&apos;s multiple_of: the width is rounded up to it (Llama 2: 256, Llama 3: 1024)</source>
        <translation>LLaMA 的 multiple_of：宽度向上取整到它的倍数（Llama 2：256，Llama 3：1024）</translation>
    </message>
    <message>
        <source>&amp;Multiplier:</source>
        <translation>倍数(&amp;M)：</translation>
    </message>
    <message>
        <source>Round up to a multiple &amp;of:</source>
        <translation>向上取整到其倍数(&amp;O)：</translation>
    </message>
    <message>
        <source>Hidden size {size}, gated FFN</source>
        <translation>隐藏层维度 {size}，门控前馈网络</translation>
    </message>
    <message>
        <source>Hidden size {size}, plain FFN</source>
        <translation>隐藏层维度 {size}，普通前馈网络</translation>
    </message>
    <message>
        <source>{start}, × {multiplier}, rounded up: FFN width {width}</source>
        <translation>{start}，× {multiplier}，向上取整：前馈网络宽度 {width}</translation>
    </message>
    <message>
        <source>From hidden…</source>
        <translation>由隐藏层维度计算…</translation>
    </message>
    <message>
        <source>Compute the FFN width from the hidden size, as LLaMA does (multiplier, multiple_of)</source>
        <translation>按 LLaMA 的做法由隐藏层维度计算前馈网络宽度（ffn_dim_multiplier、multiple_of）</translation>
    </message>
</context>
<context>
    <name>Figures</name>
    <message>
        <source>full</source>
        <translation>完整</translation>
    </message>
    <message>
        <source>causal</source>
        <translation>因果</translation>
    </message>
    <message>
        <source>memory bandwidth</source>
        <translation>显存带宽</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>算力</translation>
    </message>
    <message>
        <source> (Chinchilla-optimal 20·N)</source>
        <translation>（Chinchilla 最优 20·N）</translation>
    </message>
    <message>
        <source>Hardware per training token</source>
        <translation>每训练 token 的硬件 FLOPs</translation>
    </message>
    <message>
        <source>Active parameters N</source>
        <translation>激活参数量 N</translation>
    </message>
    <message>
        <source>Forward per token (prefill)</source>
        <translation>每 token 前向（预填充）</translation>
    </message>
    <message>
        <source>Decode step at the context</source>
        <translation>该上下文长度下的解码步</translation>
    </message>
    <message>
        <source>Training tokens D</source>
        <translation>训练 token 数 D</translation>
    </message>
    <message>
        <source>Run (with attention)</source>
        <translation>整次训练（含注意力）</translation>
    </message>
    <message>
        <source>Run time</source>
        <translation>训练时长</translation>
    </message>
    <message>
        <source>&lt;b&gt;{time}&lt;/b&gt; on {gpus} × {gpu} at {mfu} % MFU ({peak} FLOP/s peak each)</source>
        <translation>&lt;b&gt;{time}&lt;/b&gt;，{gpus} × {gpu}，MFU {mfu} %（每卡峰值 {peak} FLOP/s）</translation>
    </message>
    <message>
        <source>Training per token</source>
        <translation>每 token 训练</translation>
    </message>
    <message>
        <source>{used_flops} FLOP ({used} attention; {other}: {other_flops})</source>
        <translation>{used_flops} FLOP（{used}注意力；{other}：{other_flops}）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Compute&lt;/b&gt;</source>
        <translation>&lt;b&gt;计算量&lt;/b&gt;</translation>
    </message>
    <message>
        <source>– (no price: set usd_per_hour in gpus.json)</source>
        <translation>–（无价格：请在 gpus.json 中设置 usd_per_hour）</translation>
    </message>
    <message>
        <source>under $0.001</source>
        <translation>低于 $0.001</translation>
    </message>
    <message>
        <source>Prefill (whole batch)</source>
        <translation>预填充（整个批次）</translation>
    </message>
    <message>
        <source>{prompt} prompt</source>
        <translation>提示 {prompt}</translation>
    </message>
    <message>
        <source>Decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>&lt;b&gt;{batch}&lt;/b&gt; for the batch, {sequence} ({bound})</source>
        <translation>整批 &lt;b&gt;{batch}&lt;/b&gt;，{sequence}（{bound}）</translation>
    </message>
    <message>
        <source>{rate} per sequence</source>
        <translation>每序列 {rate}</translation>
    </message>
    <message>
        <source>Largest batch that fits</source>
        <translation>可容纳的最大批大小</translation>
    </message>
    <message>
        <source>KV cache ({tokens} tokens each)</source>
        <translation>KV 缓存（每序列 {tokens} 个 token）</translation>
    </message>
    <message>
        <source>Per million tokens</source>
        <translation>每百万 token</translation>
    </message>
    <message>
        <source>{generated} generated, {prompt} prompt</source>
        <translation>生成 {generated}，提示 {prompt}</translation>
    </message>
    <message>
        <source>{bound} bound</source>
        <translation>受{bound}限制</translation>
    </message>
    <message>
        <source>memory bandwidth bound at {share} % of peak</source>
        <translation>受显存带宽限制，按峰值的 {share} % 计</translation>
    </message>
    <message>
        <source>(does not fit)</source>
        <translation>（放不下）</translation>
    </message>
    <message>
        <source>Serving on {gpus} × {gpu}</source>
        <translation>推理部署于 {gpus} × {gpu}</translation>
    </message>
    <message>
        <source>{amount} free</source>
        <translation>剩余 {amount}</translation>
    </message>
    <message>
        <source>{amount} missing</source>
        <translation>缺少 {amount}</translation>
    </message>
    <message>
        <source>{amount} years</source>
        <translation>{amount} 年</translation>
    </message>
    <message>
        <source>{amount} days</source>
        <translation>{amount} 天</translation>
    </message>
    <message>
        <source>{amount} hours</source>
        <translation>{amount} 小时</translation>
    </message>
    <message>
        <source>{amount} minutes</source>
        <translation>{amount} 分钟</translation>
    </message>
</context>
<context>
    <name>Form</name>
    <message>
        <source>{description} In a preset file: {titles}.</source>
        <translation>{description} 预设文件中的写法：{titles}。</translation>
    </message>
    <message>
        <source>A pattern: these fields are the block its groups start from. A change here reaches each group inside that has no value of its own there; select a group to edit it alone.</source>
        <translation>模式：这些字段是其内部各组的基础块。在此修改会作用于内部所有未单独设置该值的组；选中某一组可单独编辑。</translation>
    </message>
    <message>
        <source>This model names {count} base blocks: the form shows one at a time. Selecting a layer group shows the block it starts from.</source>
        <translation>此模型命名了 {count} 个基础块：表单一次只显示一个。选中某个层组会显示它所基于的块。</translation>
    </message>
    <message>
        <source>&amp;Shown</source>
        <translation>显示(&amp;S)</translation>
    </message>
    <message>
        <source>{count} layer groups selected: a value typed here goes to each of them that has the field (Experts: only the MoE groups); ↺ resets the group shown alone.</source>
        <translation>已选中 {count} 个层组：在此输入的值会应用到其中每个具有该字段的组（专家数：仅 MoE 组）；↺ 只重置当前显示的组。</translation>
    </message>
    <message>
        <source>Inherited from the base block; type a value to give this group its own</source>
        <translation>继承自基础块；输入一个值可为本组单独设置</translation>
    </message>
    <message>
        <source>This group&apos;s own value: ↺ takes the base block&apos;s back</source>
        <translation>本组单独设置的值：↺ 恢复为基础块的值</translation>
    </message>
    <message>
        <source>Part of this group&apos;s own kind: reset the kind to take the base block&apos;s back</source>
        <translation>属于本组单独设置的类型：重置类型即可恢复为基础块的值</translation>
    </message>
    <message>
        <source>↺ takes back the value typed, which does not fit</source>
        <translation>↺ 撤回输入的不合适的值</translation>
    </message>
</context>
<context>
    <name>GoalSeek</name>
    <message>
        <source>params</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>days</source>
        <translation>天</translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation>每卡</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>below</source>
        <translation>较小值</translation>
    </message>
    <message>
        <source>answer</source>
        <translation>答案</translation>
    </message>
    <message>
        <source>above</source>
        <translation>较大值</translation>
    </message>
    <message>
        <source>Goal Seek</source>
        <translation>目标求解</translation>
    </message>
    <message>
        <source>{title} (now {value})</source>
        <translation>{title}（当前 {value}）</translation>
    </message>
    <message>
        <source>{description}
Allowed: {constraint}.</source>
        <translation>{description}
允许：{constraint}。</translation>
    </message>
    <message>
        <source>Scale the &amp;FFN width with it</source>
        <translation>前馈网络宽度随之缩放(&amp;F)</translation>
    </message>
    <message>
        <source>Varying the hidden size, every FFN width (dense, expert, shared expert) keeps its ratio to it, w·h&apos;/h rounded up, as a model family scales its FFN with its width; unticked, the FFN widths stay as they are</source>
        <translation>改变隐藏层维度时，每个前馈网络宽度（稠密、专家、共享专家）保持与它的比例，w·h&apos;/h 向上取整，如同一个模型系列随宽度缩放其前馈网络；不勾选时，前馈网络宽度保持不变</translation>
    </message>
    <message>
        <source>Fits on a GPU setup</source>
        <translation>放得下某 GPU 配置</translation>
    </message>
    <message>
        <source>at least</source>
        <translation>至少</translation>
    </message>
    <message>
        <source>at most</source>
        <translation>至多</translation>
    </message>
    <message>
        <source>Only values that are multiples of this (e.g. 128 for a hidden size)</source>
        <translation>只取它的倍数（如隐藏层维度取 128）</translation>
    </message>
    <message>
        <source>&amp;Vary:</source>
        <translation>改变(&amp;V)：</translation>
    </message>
    <message>
        <source>&amp;Target:</source>
        <translation>目标(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Multiple of:</source>
        <translation>倍数(&amp;M)：</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>The fewest GPUs of the kind that hold the model, laid out as the GPU setups</source>
        <translation>能放下模型的该型号 GPU 的最少数量，并行布局同 GPU 配置表</translation>
    </message>
    <message>
        <source>The largest (or smallest) value that still fits this many GPUs of the kind</source>
        <translation>在这么多块该型号 GPU 上仍放得下的最大（或最小）值</translation>
    </message>
    <message>
        <source>{description}; in {unit} (e.g. {example})</source>
        <translation>{description}；单位 {unit}（例如 {example}）</translation>
    </message>
    <message>
        <source>Type the target value.</source>
        <translation>请输入目标值。</translation>
    </message>
    <message>
        <source>Total parameters</source>
        <translation>总参数量</translation>
    </message>
    <message>
        <source>Active parameters</source>
        <translation>激活参数量</translation>
    </message>
    <message>
        <source>of {capacity}</source>
        <translation>共 {capacity}</translation>
    </message>
    <message>
        <source>Meets the target</source>
        <translation>达到目标</translation>
    </message>
    <message>
        <source>Note: beyond the model&apos;s {positions} positions.</source>
        <translation>注意：超出模型的 {positions} 个位置。</translation>
    </message>
    <message>
        <source>{widths} (kept in proportion to the hidden size)</source>
        <translation>{widths}（与隐藏层维度保持比例）</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>fits {count} × {gpu}</source>
        <translation>可放入 {count} × {gpu}</translation>
    </message>
    <message>
        <source>&amp;Apply {value}</source>
        <translation>应用 {value}(&amp;A)</translation>
    </message>
    <message>
        <source>Goal seek: {what}</source>
        <translation>目标求解：{what}</translation>
    </message>
    <message>
        <source>{title}: the scenario refused {value}</source>
        <translation>{title}：场景拒绝了 {value}</translation>
    </message>
    <message>
        <source>{part} of {whole}</source>
        <translation>{part} / {whole}</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
</context>
<context>
    <name>Guide</name>
    <message>
        <source>User Guide — ParamTally</source>
        <translation>用户指南 — ParamTally</translation>
    </message>
    <message>
        <source>Sections of the guide</source>
        <translation>指南的章节</translation>
    </message>
    <message>
        <source>Open in Browser</source>
        <translation>在浏览器中打开</translation>
    </message>
    <message>
        <source>Hand README.md to the desktop&apos;s browser or Markdown viewer</source>
        <translation>用桌面的浏览器或 Markdown 查看器打开 README.md</translation>
    </message>
    <message>
        <source>The guide is not installed here: {path} cannot be read ({reason}).</source>
        <translation>此处未安装指南：无法读取 {path}（{reason}）。</translation>
    </message>
    <message>
        <source>The guide is missing from this installation ({path}).</source>
        <translation>此安装缺少指南（{path}）。</translation>
    </message>
    <message>
        <source>From {path}</source>
        <translation>来自 {path}</translation>
    </message>
    <message>
        <source>Opened {path} outside ParamTally.</source>
        <translation>已在 ParamTally 之外打开 {path}。</translation>
    </message>
    <message>
        <source>No browser or viewer opens files on this machine, so the guide stays here; the file is {path}</source>
        <translation>本机没有可打开文件的浏览器或查看器，因此指南留在此处；文件为 {path}</translation>
    </message>
    <message>
        <source>The guide links to {url} (not opened: ParamTally works offline).</source>
        <translation>指南链接到 {url}（未打开：ParamTally 离线工作）。</translation>
    </message>
</context>
<context>
    <name>Headline</name>
    <message>
        <source>{human} parameters</source>
        <translation>{human} 参数</translation>
    </message>
    <message>
        <source>, {count} active</source>
        <translation>，激活 {count}</translation>
    </message>
    <message>
        <source>Text only: &lt;b&gt;{count}&lt;/b&gt; ({human}{active}); vision tower {vision}, projector {projector}</source>
        <translation>仅文本部分：&lt;b&gt;{count}&lt;/b&gt;（{human}{active}）；视觉塔 {vision}，投影器 {projector}</translation>
    </message>
    <message>
        <source>MoE: &lt;b&gt;{total}&lt;/b&gt; total vs &lt;b&gt;{active}&lt;/b&gt; active per token ({total_human} vs {active_human}, {share}&amp;nbsp;% active)</source>
        <translation>MoE：总计 &lt;b&gt;{total}&lt;/b&gt;，每 token 激活 &lt;b&gt;{active}&lt;/b&gt;（{total_human} 对 {active_human}，激活 {share}&amp;nbsp;%）</translation>
    </message>
    <message>
        <source>Base &lt;b&gt;{base}&lt;/b&gt; ({base_human}) + added &lt;b&gt;{added}&lt;/b&gt; ({added_human}: {parts})</source>
        <translation>基座 &lt;b&gt;{base}&lt;/b&gt;（{base_human}）+ 新增 &lt;b&gt;{added}&lt;/b&gt;（{added_human}：{parts}）</translation>
    </message>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>+ multi-token prediction &lt;b&gt;{mtp}&lt;/b&gt; ({mtp_human}), which transformers does not build: &lt;b&gt;{total}&lt;/b&gt; ({total_human}) with it</source>
        <translation>+ 多 token 预测 &lt;b&gt;{mtp}&lt;/b&gt;（{mtp_human}），transformers 不会构建它：含此部分共 &lt;b&gt;{total}&lt;/b&gt;（{total_human}）</translation>
    </message>
    <message>
        <source>{name}: {total} parameters, exact</source>
        <translation>{name}：{total} 个参数，精确值</translation>
    </message>
    <message>
        <source>(the last valid model)</source>
        <translation>（最后一个有效模型）</translation>
    </message>
</context>
<context>
    <name>Help</name>
    <message>
        <source>&amp;User Guide</source>
        <translation>用户指南(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About ParamTally</source>
        <translation>关于 ParamTally(&amp;A)</translation>
    </message>
</context>
<context>
    <name>LayerTree</name>
    <message>
        <source>Stacks, layer groups and blocks</source>
        <translation>堆栈、层组与块</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Move layer group</source>
        <translation>移动层组</translation>
    </message>
    <message>
        <source>Layer tree</source>
        <translation>层级树</translation>
    </message>
    <message>
        <source>{title} on {groups}</source>
        <translation>{title}（{groups}）</translation>
    </message>
    <message>
        <source>Mixer: {kind}</source>
        <translation>混合器：{kind}</translation>
    </message>
    <message>
        <source>Split layer group</source>
        <translation>拆分层组</translation>
    </message>
    <message>
        <source>Second part starts at layer:</source>
        <translation>第二部分起始层：</translation>
    </message>
    <message>
        <source>Split at layer {layer}</source>
        <translation>在第 {layer} 层拆分</translation>
    </message>
    <message>
        <source>Group: {group}</source>
        <translation>层组：{group}</translation>
    </message>
    <message>
        <source>Remove {block}</source>
        <translation>移除{block}</translation>
    </message>
    <message>
        <source>block</source>
        <translation>块</translation>
    </message>
    <message>
        <source>Paste {what} onto {groups}</source>
        <translation>将{what}粘贴到 {groups}</translation>
    </message>
    <message>
        <source>Merge layer groups</source>
        <translation>合并层组</translation>
    </message>
    <message>
        <source>Delete layer group</source>
        <translation>删除层组</translation>
    </message>
    <message>
        <source>Change the mixer to {kind}</source>
        <translation>将混合器改为{kind}</translation>
    </message>
    <message>
        <source>Sliding window</source>
        <translation>滑动窗口</translation>
    </message>
    <message>
        <source>Window in tokens (0: the whole context):</source>
        <translation>窗口大小（token 数；0 表示整个上下文）：</translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>Query heads:</source>
        <translation>Query 头数：</translation>
    </message>
    <message>
        <source>FFN width</source>
        <translation>前馈网络宽度</translation>
    </message>
    <message>
        <source>Intermediate width:</source>
        <translation>中间层宽度：</translation>
    </message>
    <message>
        <source>Open the context menu</source>
        <translation>打开上下文菜单</translation>
    </message>
    <message>
        <source>Split at layer…</source>
        <translation>在某层处拆分…</translation>
    </message>
    <message>
        <source>Sliding window…</source>
        <translation>滑动窗口…</translation>
    </message>
    <message>
        <source>Attention heads…</source>
        <translation>注意力头数…</translation>
    </message>
    <message>
        <source>FFN width…</source>
        <translation>前馈网络宽度…</translation>
    </message>
    <message>
        <source>Edit {block}…</source>
        <translation>编辑{block}…</translation>
    </message>
    <message>
        <source>Copy {part}</source>
        <translation>复制{part}</translation>
    </message>
    <message>
        <source>Copy block</source>
        <translation>复制块</translation>
    </message>
    <message>
        <source>Paste {part}</source>
        <translation>粘贴{part}</translation>
    </message>
    <message>
        <source>Paste block</source>
        <translation>粘贴块</translation>
    </message>
    <message>
        <source>Make stack from a pattern…</source>
        <translation>由模式生成堆栈…</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Delete group</source>
        <translation>删除层组</translation>
    </message>
    <message>
        <source>Mixer kind</source>
        <translation>混合器类型</translation>
    </message>
    <message>
        <source>1 group</source>
        <translation>1 个层组</translation>
    </message>
    <message>
        <source>{count} groups</source>
        <translation>{count} 个层组</translation>
    </message>
    <message>
        <source>Convert FFN to MoE…</source>
        <translation>将前馈网络转换为 MoE…</translation>
    </message>
    <message>
        <source>Add LoRA…</source>
        <translation>添加 LoRA…</translation>
    </message>
    <message>
        <source>Add adapter…</source>
        <translation>添加适配器…</translation>
    </message>
    <message>
        <source>Convert MoE to dense FFN</source>
        <translation>将 MoE 转换为稠密前馈网络</translation>
    </message>
    <message>
        <source>Remove LoRA</source>
        <translation>移除 LoRA</translation>
    </message>
    <message>
        <source>Remove adapter</source>
        <translation>移除适配器</translation>
    </message>
    <message>
        <source>Change repetitions</source>
        <translation>修改重复次数</translation>
    </message>
    <message>
        <source>Change layer count</source>
        <translation>修改层数</translation>
    </message>
    <message>
        <source>Repetitions of its pattern:</source>
        <translation>其模式的重复次数：</translation>
    </message>
    <message>
        <source>Layers:</source>
        <translation>层数：</translation>
    </message>
    <message>
        <source>Edit {block}</source>
        <translation>编辑{block}</translation>
    </message>
    <message>
        <source>Convert to {block}</source>
        <translation>转换为{block}</translation>
    </message>
    <message>
        <source>Add {block}</source>
        <translation>添加{block}</translation>
    </message>
    <message>
        <source>Merge with next (their blocks differ)</source>
        <translation>与下一组合并（两者的块不同）</translation>
    </message>
    <message>
        <source>Merge with next</source>
        <translation>与下一组合并</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&lt;b&gt;Stacks, layer groups and blocks&lt;/b&gt; — select a group to edit its block above; right-click (or the Menu key) to split, change the mixer, convert to MoE, copy and paste, make a pattern; drag to reorder</source>
        <translation>&lt;b&gt;堆栈、层组与块&lt;/b&gt; — 选中一个组即可在上方编辑其块；右键（或菜单键）可拆分、更换混合器、转换为 MoE、复制粘贴、生成模式；拖动可调整顺序</translation>
    </message>
    <message>
        <source>Drawing the charts and the table of terms…</source>
        <translation>正在绘制图表和各项明细表…</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Parameters: charts by part or per layer, and the table of formulas</source>
        <translation>参数量：按部分或逐层的图表，以及公式表</translation>
    </message>
    <message>
        <source>Memory and GPU fit</source>
        <translation>显存与 GPU 适配</translation>
    </message>
    <message>
        <source>Memory budget per GPU under the scenario, and the GPU setups it fits</source>
        <translation>该场景下每块 GPU 的显存预算，以及能放下的 GPU 配置</translation>
    </message>
    <message>
        <source>Presets</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>E&amp;xplore</source>
        <translation>探索(&amp;X)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Folder…</source>
        <translation>打开文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>Open &amp;Built-in Preset</source>
        <translation>打开内置预设(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Browse &amp;Presets</source>
        <translation>浏览预设(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>Follow the &amp;System</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Language: {language}</source>
        <translation>界面语言：{language}</translation>
    </message>
    <message>
        <source>{stored}, not editable — {kept} stays open</source>
        <translation>{stored}，不可编辑 — {kept} 保持打开</translation>
    </message>
    <message>
        <source>Opened {source}</source>
        <translation>已打开 {source}</translation>
    </message>
    <message>
        <source>Opened the built-in {preset}</source>
        <translation>已打开内置预设 {preset}</translation>
    </message>
    <message>
        <source>New model from {template}</source>
        <translation>由模板新建模型：{template}</translation>
    </message>
    <message>
        <source>Open preset or config.json</source>
        <translation>打开预设或 config.json</translation>
    </message>
    <message>
        <source>Model configs (*.json);;All files (*)</source>
        <translation>模型配置 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open</source>
        <translation>无法打开</translation>
    </message>
    <message>
        <source>Open a model folder (its config.json, or the weights of any model)</source>
        <translation>打开模型文件夹（其 config.json，或任意模型的权重）</translation>
    </message>
    <message>
        <source>No model opened yet</source>
        <translation>尚未打开过模型</translation>
    </message>
    <message>
        <source>{reason}

Remove it from Open Recent?</source>
        <translation>{reason}

要将它从“最近打开”中移除吗？</translation>
    </message>
</context>
<context>
    <name>Memory</name>
    <message>
        <source>Only setups that fit</source>
        <translation>只显示放得下的配置</translation>
    </message>
    <message>
        <source>Hide the GPU kinds and counts on which the scenario does not fit</source>
        <translation>隐藏该场景放不下的 GPU 型号与数量</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>&lt;b&gt;GPU setups&lt;/b&gt;</source>
        <translation>&lt;b&gt;GPU 配置&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Every GPU kind × count with the layout core picks; hover a column&apos;s title for its meaning</source>
        <translation>每种 GPU 型号 × 数量，以及计算核心选定的并行布局；将鼠标悬停在列标题上可查看含义</translation>
    </message>
    <message>
        <source>GPU filter</source>
        <translation>GPU 筛选</translation>
    </message>
    <message>
        <source>Filter by GPU: H100, RTX 4090…</source>
        <translation>按 GPU 筛选：H100、RTX 4090…</translation>
    </message>
    <message>
        <source>Only the GPUs whose name holds every word typed, in any letter case; commas separate alternatives (“RTX 4090, a100” keeps the 4090 and both A100s). Escape empties it.</source>
        <translation>只保留名称包含所输入全部词语的 GPU（不区分大小写）；逗号分隔多个备选（“RTX 4090, a100” 保留 4090 和两种 A100）。按 Esc 清空。</translation>
    </message>
    <message>
        <source>Empty the GPU filter</source>
        <translation>清空 GPU 筛选</translation>
    </message>
    <message>
        <source>{shown} of {every}</source>
        <translation>{shown} / {every}</translation>
    </message>
    <message>
        <source>no GPU matches “{text}”</source>
        <translation>没有与“{text}”匹配的 GPU</translation>
    </message>
    <message>
        <source>Images: {images}.</source>
        <translation>图像：{images}。</translation>
    </message>
    <message>
        <source>Not modelled: {note}.</source>
        <translation>未计入：{note}。</translation>
    </message>
    <message>
        <source>No setup in the table fits (up to {count} GPUs of each kind).</source>
        <translation>表中没有放得下的配置（每种型号最多 {count} 块 GPU）。</translation>
    </message>
    <message>
        <source>Fits on {fitting} of {setups} setups. Smallest: {best}.</source>
        <translation>{setups} 种配置中有 {fitting} 种放得下。最小：{best}。</translation>
    </message>
    <message>
        <source> On {gpu}: {setup}.</source>
        <translation> 在 {gpu} 上：{setup}。</translation>
    </message>
    <message>
        <source> No count of {gpu} in the table fits.</source>
        <translation> 表中任何数量的 {gpu} 都放不下。</translation>
    </message>
    <message>
        <source>Training means frozen base + adapters: this model has LoRA/adapter layers, so only their {count} parameters get gradients and optimizer states; the base is frozen.</source>
        <translation>训练即冻结基座 + 适配器：此模型带有 LoRA/适配器层，只有它们的 {count} 个参数有梯度和优化器状态；基座被冻结。</translation>
    </message>
    <message>
        <source>This model has LoRA/adapter layers ({count} parameters): training it means frozen base + adapters.</source>
        <translation>此模型带有 LoRA/适配器层（{count} 个参数）：训练它即冻结基座 + 适配器。</translation>
    </message>
    <message>
        <source>No figures for this model until it fits.</source>
        <translation>在放得下之前，此模型没有数值。</translation>
    </message>
    <message>
        <source>The figures are the last valid ones.</source>
        <translation>显示的是最后一组有效数值。</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>空</translation>
    </message>
    <message>
        <source>Not applied: {label}: {reason} ({label} stays {stays}; the figures are for it).</source>
        <translation>未应用：{label}：{reason}（{label} 保持为 {stays}；图表按此值计算）。</translation>
    </message>
    <message>
        <source>Not applied: {label} {typed} — {reason} ({label} stays {stays}; the figures are for it).</source>
        <translation>未应用：{label} {typed} —— {reason}（{label} 保持为 {stays}；图表按此值计算）。</translation>
    </message>
    <message>
        <source>The scenario does not fit this model: {label}: {reason}. {kept}</source>
        <translation>该场景不适用于此模型：{label}：{reason}。{kept}</translation>
    </message>
    <message>
        <source>Scenario refused: {reason}. {kept}</source>
        <translation>场景被拒绝：{reason}。{kept}</translation>
    </message>
    <message>
        <source> GPUs</source>
        <translation> 个 GPU</translation>
    </message>
    <message>
        <source> GPU</source>
        <translation> 个 GPU</translation>
    </message>
    <message>
        <source>{count}{kind} ({layout}), {free} free each</source>
        <translation>{count}{kind}（{layout}），每卡剩余 {free}</translation>
    </message>
    <message>
        <source>Per GPU for the sequences served: {parts}.</source>
        <translation>每块 GPU 上所服务序列占用：{parts}。</translation>
    </message>
</context>
<context>
    <name>MemoryChart</name>
    <message>
        <source>Memory per GPU</source>
        <translation>每块 GPU 显存</translation>
    </message>
    <message>
        <source>– – capacity of {gpu}: {amount} usable</source>
        <translation>– – {gpu} 容量：可用 {amount}</translation>
    </message>
    <message>
        <source>{amount} per GPU</source>
        <translation>每块 GPU {amount}</translation>
    </message>
    <message>
        <source>– – capacity {amount}</source>
        <translation>– – 容量 {amount}</translation>
    </message>
</context>
<context>
    <name>Notices</name>
    <message>
        <source>The details are in {log}; please add them to a bug report.</source>
        <translation>详细信息见 {log}；请将其附在错误报告中。</translation>
    </message>
    <message>
        <source>ParamTally hit a bug</source>
        <translation>ParamTally 遇到了程序错误</translation>
    </message>
    <message>
        <source>What you last did may not have finished; the model stays open.</source>
        <translation>你最后的操作可能未完成；模型保持打开。</translation>
    </message>
</context>
<context>
    <name>NumberDialog</name>
    <message>
        <source>a whole number from {low} to {high}</source>
        <translation>{low} 到 {high} 之间的整数</translation>
    </message>
    <message>
        <source>Type {allowed}.</source>
        <translation>请输入{allowed}。</translation>
    </message>
    <message>
        <source>“{text}” is not a whole number: type {allowed}.</source>
        <translation>“{text}”不是整数：请输入{allowed}。</translation>
    </message>
    <message>
        <source>{number} is less than {low}: type {allowed}.</source>
        <translation>{number} 小于 {low}：请输入{allowed}。</translation>
    </message>
    <message>
        <source>{number} is more than {high}: type {allowed}.</source>
        <translation>{number} 大于 {high}：请输入{allowed}。</translation>
    </message>
</context>
<context>
    <name>Panes</name>
    <message>
        <source>Go to {pane}</source>
        <translation>转到{pane}</translation>
    </message>
    <message>
        <source>&amp;Next Pane</source>
        <translation>下一个窗格(&amp;N)</translation>
    </message>
    <message>
        <source>Pre&amp;vious Pane</source>
        <translation>上一个窗格(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Form</source>
        <translation>表单(&amp;F)</translation>
    </message>
    <message>
        <source>Layer &amp;Tree</source>
        <translation>层级树(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Charts</source>
        <translation>图表(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Memory Tab</source>
        <translation>显存标签页(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Presets</source>
        <translation>预设(&amp;P)</translation>
    </message>
</context>
<context>
    <name>Pattern</name>
    <message>
        <source>Make the {stack} from a pattern</source>
        <translation>由模式生成{stack}</translation>
    </message>
    <message>
        <source>Layer kinds, counts and rules for the {stack}&apos;s {layers} layers (a repeat count sets the number of layers; a pattern makes at most {most} layers). Examples: {examples}</source>
        <translation>{stack}共 {layers} 层的层类型、数量与规则（重复次数决定层数；一个模式最多生成 {most} 层）。示例（模式语法使用英文）：{examples}</translation>
    </message>
    <message>
        <source>Layer groups it makes</source>
        <translation>将生成的层组</translation>
    </message>
    <message>
        <source>Type a pattern.</source>
        <translation>请输入一个模式。</translation>
    </message>
    <message>
        <source>{layers} layers; the model then has {total} parameters.</source>
        <translation>{layers} 层；模型将有 {total} 个参数。</translation>
    </message>
</context>
<context>
    <name>Presets</name>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Save As…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Duplicate…</source>
        <translation>复制…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>unsaved model</source>
        <translation>未保存的模型</translation>
    </message>
    <message>
        <source> (user)</source>
        <translation>（用户）</translation>
    </message>
    <message>
        <source>  ● unsaved changes</source>
        <translation>  ● 有未保存的更改</translation>
    </message>
    <message>
        <source>Open in the window: {name}</source>
        <translation>窗口中打开的：{name}</translation>
    </message>
    <message>
        <source>Save Preset</source>
        <translation>保存预设</translation>
    </message>
    <message>
        <source>Save Preset As…</source>
        <translation>预设另存为…</translation>
    </message>
    <message>
        <source>Import Preset…</source>
        <translation>导入预设…</translation>
    </message>
    <message>
        <source>Export Preset…</source>
        <translation>导出预设…</translation>
    </message>
    <message>
        <source>Search presets…</source>
        <translation>搜索预设…</translation>
    </message>
    <message>
        <source>Save changes?</source>
        <translation>保存更改？</translation>
    </message>
    <message>
        <source>“{name}” has unsaved changes. Save them as a preset?</source>
        <translation>“{name}”有未保存的更改。要保存为预设吗？</translation>
    </message>
    <message>
        <source>Cannot open preset</source>
        <translation>无法打开预设</translation>
    </message>
    <message>
        <source>Save preset as</source>
        <translation>预设另存为</translation>
    </message>
    <message>
        <source>Cannot save preset</source>
        <translation>无法保存预设</translation>
    </message>
    <message>
        <source>Rename preset</source>
        <translation>重命名预设</translation>
    </message>
    <message>
        <source>Rename preset?</source>
        <translation>重命名预设？</translation>
    </message>
    <message>
        <source>“{id}” is a built-in id. Rename to it, shadowing the built-in?</source>
        <translation>“{id}”是内置预设的 id。仍要重命名为它并覆盖内置预设吗？</translation>
    </message>
    <message>
        <source>Cannot rename preset</source>
        <translation>无法重命名预设</translation>
    </message>
    <message>
        <source>Duplicate preset</source>
        <translation>复制预设</translation>
    </message>
    <message>
        <source>Cannot duplicate preset</source>
        <translation>无法复制预设</translation>
    </message>
    <message>
        <source> The built-in preset of that id will show again.</source>
        <translation> 该 id 的内置预设将重新显示。</translation>
    </message>
    <message>
        <source>Delete the user preset “{id}” ({path})? This cannot be undone.</source>
        <translation>删除用户预设“{id}”（{path}）？此操作无法撤销。</translation>
    </message>
    <message>
        <source>Delete preset?</source>
        <translation>删除预设？</translation>
    </message>
    <message>
        <source>Cannot delete preset</source>
        <translation>无法删除预设</translation>
    </message>
    <message>
        <source>Import preset</source>
        <translation>导入预设</translation>
    </message>
    <message>
        <source>Presets and config.json (*.json);;All files (*)</source>
        <translation>预设和 config.json (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Import as preset</source>
        <translation>导入为预设</translation>
    </message>
    <message>
        <source>Cannot import preset</source>
        <translation>无法导入预设</translation>
    </message>
    <message>
        <source>Cannot export preset</source>
        <translation>无法导出预设</translation>
    </message>
    <message>
        <source>Export preset</source>
        <translation>导出预设</translation>
    </message>
    <message>
        <source>Presets (*.json)</source>
        <translation>预设 (*.json)</translation>
    </message>
    <message>
        <source>Preset id (letters, digits, . _ + -):</source>
        <translation>预设 id（字母、数字、. _ + -）：</translation>
    </message>
    <message>
        <source>Replace preset?</source>
        <translation>替换预设？</translation>
    </message>
    <message>
        <source>A user preset “{id}” exists. Replace it?</source>
        <translation>用户预设“{id}”已存在。要替换它吗？</translation>
    </message>
    <message>
        <source>“{id}” is a built-in id. Save a user preset that shadows it?</source>
        <translation>“{id}”是内置预设的 id。要保存一个覆盖它的用户预设吗？</translation>
    </message>
    <message>
        <source>The file name of the preset: letters, digits and . _ + -</source>
        <translation>预设的文件名：字母、数字和 . _ + -</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Id:</source>
        <translation>Id(&amp;I)：</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>Schema</name>
    <message>
        <source>16-bit embeddings</source>
        <translation>16 位嵌入</translation>
    </message>
    <message>
        <source>A bias of V on the head (Phi-2).</source>
        <translation>输出头上长度为 V 的偏置（Phi-2）。</translation>
    </message>
    <message>
        <source>A bias of e on the patch embedding.</source>
        <translation>块嵌入上长度为 e 的偏置。</translation>
    </message>
    <message>
        <source>A bias of its out width.</source>
        <translation>长度为其输出宽度的偏置。</translation>
    </message>
    <message>
        <source>A bias on in_proj, the conv and out_proj.</source>
        <translation>in_proj、卷积和 out_proj 上的偏置。</translation>
    </message>
    <message>
        <source>A bias on in_proj.</source>
        <translation>in_proj 上的偏置。</translation>
    </message>
    <message>
        <source>A bias on out_proj.</source>
        <translation>out_proj 上的偏置。</translation>
    </message>
    <message>
        <source>A bias on the conv.</source>
        <translation>卷积上的偏置。</translation>
    </message>
    <message>
        <source>A bias on the router.</source>
        <translation>路由器上的偏置。</translation>
    </message>
    <message>
        <source>A bias on the transform&apos;s dense layer (ModernBERT: classifier_bias, off).</source>
        <translation>变换层的 dense 层上的偏置（ModernBERT：classifier_bias，默认关闭）。</translation>
    </message>
    <message>
        <source>A dense h→h layer and norm before the head (BERT&apos;s MLM head).</source>
        <translation>输出头前的一个 h→h dense 层和归一化（BERT 的 MLM 头）。</translation>
    </message>
    <message>
        <source>A dense h→h pooler on the first token (BERT).</source>
        <translation>作用于第一个 token 的 h→h dense 池化层（BERT）。</translation>
    </message>
    <message>
        <source>A fused attention kernel: no s×s scores are stored (the megatron activations; the hf profiles name their attention).</source>
        <translation>融合注意力算子：不保存 s×s 注意力分数（megatron 激活值模型；hf 配置文件各自指明其注意力实现）。</translation>
    </message>
    <message>
        <source>A language-model head (off for a bare encoder).</source>
        <translation>语言模型输出头（纯编码器时关闭）。</translation>
    </message>
    <message>
        <source>A learned attention-sink logit per head (gpt-oss).</source>
        <translation>每个头一个可学习的注意力汇聚（sink）logit（gpt-oss）。</translation>
    </message>
    <message>
        <source>A learned table (CLIP, SigLIP), or 2-D rotary positions without weights (Qwen, Pixtral: rope).</source>
        <translation>可学习的位置表（CLIP、SigLIP），或无权重的二维旋转位置编码（Qwen、Pixtral：rope）。</translation>
    </message>
    <message>
        <source>A learned token of e before the patches (CLIP, InternViT, Llama-4, Mllama).</source>
        <translation>块之前一个长度为 e 的可学习 token（CLIP、InternViT、Llama-4、Mllama）。</translation>
    </message>
    <message>
        <source>A linear layer over the unfolded patch (Llama-4) instead of a convolution: the same e·C·t·p² weights.</source>
        <translation>用作用于展开后图像块的线性层（Llama-4）代替卷积：权重同为 e·C·t·p²。</translation>
    </message>
    <message>
        <source>A norm after the last layer.</source>
        <translation>最后一层之后的归一化。</translation>
    </message>
    <message>
        <source>A norm on the patch embeddings (CLIP, Pixtral, Llama-4).</source>
        <translation>图像块嵌入上的归一化（CLIP、Pixtral、Llama-4）。</translation>
    </message>
    <message>
        <source>A norm over f before the down projection (BitNet&apos;s ffn_sub_norm).</source>
        <translation>下投影之前对 f 的归一化（BitNet 的 ffn_sub_norm）。</translation>
    </message>
    <message>
        <source>A norm over the relative position table (DeBERTa&apos;s norm_rel_ebd).</source>
        <translation>相对位置表上的归一化（DeBERTa 的 norm_rel_ebd）。</translation>
    </message>
    <message>
        <source>A norm right after the embeddings (BLOOM, BERT, BART).</source>
        <translation>紧接嵌入层之后的归一化（BLOOM、BERT、BART）。</translation>
    </message>
    <message>
        <source>A norm with weights over d_h on q and k (Qwen3).</source>
        <translation>作用于 q 和 k、权重长度为 d_h 的归一化（Qwen3）。</translation>
    </message>
    <message>
        <source>A quantization format for the weights (its effective bits include scales); empty means plain dtype. MXFP4 keeps the routed experts alone (as gpt-oss ships), the rest at the dtype. In training only for a frozen LoRA base (QLoRA).</source>
        <translation>权重的量化格式（有效位数含缩放因子）；留空表示使用普通数据类型。MXFP4 只量化路由专家（与 gpt-oss 发布的一致），其余保持该数据类型。训练时仅用于冻结的 LoRA 基座（QLoRA）。</translation>
    </message>
    <message>
        <source>A second bias of V on an untied decoder (BERT&apos;s MLM head with tie_word_embeddings false: transformers then unties decoder.bias too).</source>
        <translation>未绑定的解码器上第二个长度为 V 的偏置（BERT 的 MLM 头在 tie_word_embeddings 为 false 时：transformers 也会解绑 decoder.bias）。</translation>
    </message>
    <message>
        <source>A second mixer on the same input, summed with the first (Falcon-H1: Mamba-2 beside attention).</source>
        <translation>作用于同一输入的第二个混合器，与第一个相加（Falcon-H1：Mamba-2 与注意力并列）。</translation>
    </message>
    <message>
        <source>A sigmoid gate h→1 on the shared expert (Qwen-MoE).</source>
        <translation>共享专家上的 h→1 sigmoid 门控（Qwen-MoE）。</translation>
    </message>
    <message>
        <source>A sigmoid gate per head dimension from q_proj (Qwen3-Next).</source>
        <translation>来自 q_proj 的逐头维度 sigmoid 门控（Qwen3-Next）。</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>激活函数</translation>
    </message>
    <message>
        <source>Activation recomputation: selective drops the attention scores, full keeps only each layer&apos;s input (Korthikanti et al. 2022).</source>
        <translation>激活重计算：selective 丢弃注意力分数，full 只保留每层的输入（Korthikanti 等，2022）。</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Active parameters</source>
        <translation>激活参数量</translation>
    </message>
    <message>
        <source>AdamW: fp32 master + m + v = 12 B/param; 8-bit Adam 6; SGD with momentum 8; none (Adafactor-like, no states).</source>
        <translation>AdamW：fp32 主权重 + m + v = 12 B/参数；8-bit Adam 为 6；带动量的 SGD 为 8；none（类似 Adafactor，无状态）。</translation>
    </message>
    <message>
        <source>Adapter</source>
        <translation>适配器</translation>
    </message>
    <message>
        <source>Adapter rank</source>
        <translation>适配器秩</translation>
    </message>
    <message>
        <source>Adapters</source>
        <translation>适配器</translation>
    </message>
    <message>
        <source>Adapters held</source>
        <translation>所含适配器</translation>
    </message>
    <message>
        <source>Added vocabulary</source>
        <translation>新增词表</translation>
    </message>
    <message>
        <source>After the mixer, after the FFN, or both (Houlsby).</source>
        <translation>在混合器之后、前馈网络之后，或两者之后（Houlsby）。</translation>
    </message>
    <message>
        <source>Always-active experts; together they form one MLP.</source>
        <translation>始终激活的专家；它们合起来构成一个 MLP。</translation>
    </message>
    <message>
        <source>Aspect ratios</source>
        <translation>宽高比</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Attention FLOPs</source>
        <translation>注意力 FLOPs</translation>
    </message>
    <message>
        <source>Attention adapters</source>
        <translation>注意力适配器</translation>
    </message>
    <message>
        <source>Attention dropout</source>
        <translation>注意力 dropout</translation>
    </message>
    <message>
        <source>Attention experts (E).</source>
        <translation>注意力专家数（E）。</translation>
    </message>
    <message>
        <source>Attention experts per token (k).</source>
        <translation>每个 token 激活的注意力专家数（k）。</translation>
    </message>
    <message>
        <source>Attention over the encoder&apos;s output (encoder-decoder).</source>
        <translation>对编码器输出的注意力（编码器-解码器）。</translation>
    </message>
    <message>
        <source>Audio front-end</source>
        <translation>音频前端</translation>
    </message>
    <message>
        <source>Bandwidth efficiency</source>
        <translation>带宽效率</translation>
    </message>
    <message>
        <source>Base block</source>
        <translation>基础块</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Bias</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>Bias on kv_a.</source>
        <translation>kv_a 上的偏置。</translation>
    </message>
    <message>
        <source>Bias on q_a (or q when direct).</source>
        <translation>q_a（直接投影时为 q）上的偏置。</translation>
    </message>
    <message>
        <source>Bias on the key projection.</source>
        <translation>键投影上的偏置。</translation>
    </message>
    <message>
        <source>Bias on the output projection.</source>
        <translation>输出投影上的偏置。</translation>
    </message>
    <message>
        <source>Bias on the query projection.</source>
        <translation>查询投影上的偏置。</translation>
    </message>
    <message>
        <source>Bias on the value projection.</source>
        <translation>值投影上的偏置。</translation>
    </message>
    <message>
        <source>Biases on in_proj and out_proj.</source>
        <translation>in_proj 和 out_proj 上的偏置。</translation>
    </message>
    <message>
        <source>Biases on the FFN matrices.</source>
        <translation>前馈网络矩阵上的偏置。</translation>
    </message>
    <message>
        <source>Biases on the down and up projections.</source>
        <translation>下投影和上投影上的偏置。</translation>
    </message>
    <message>
        <source>Biases on the expert matrices.</source>
        <translation>专家矩阵上的偏置。</translation>
    </message>
    <message>
        <source>Biases on the shared MLP&apos;s matrices.</source>
        <translation>共享 MLP 矩阵上的偏置。</translation>
    </message>
    <message>
        <source>Biases on the shared expert only (DeepSeek-V2 mlp_bias); expert bias implies them.</source>
        <translation>仅共享专家上的偏置（DeepSeek-V2 的 mlp_bias）；专家偏置隐含这些偏置。</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>块</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>块</translation>
    </message>
    <message>
        <source>Blocks of the block-diagonal gates (H; the attention heads).</source>
        <translation>块对角门控的块数（H；即注意力头数）。</translation>
    </message>
    <message>
        <source>Bottleneck</source>
        <translation>瓶颈维度</translation>
    </message>
    <message>
        <source>Bottleneck adapters in this block.</source>
        <translation>本块中的瓶颈适配器。</translation>
    </message>
    <message>
        <source>Bottleneck width (b).</source>
        <translation>瓶颈宽度（b）。</translation>
    </message>
    <message>
        <source>Branch</source>
        <translation>分支</translation>
    </message>
    <message>
        <source>Branches</source>
        <translation>分支</translation>
    </message>
    <message>
        <source>Buckets of a relative position bias, one table of a bias per head for the stack (T5: in its first layer; MPNet: the encoder&apos;s, read by every layer).</source>
        <translation>相对位置偏置的桶数：整个栈共用一张表，每个头一个偏置（T5：位于第一层；MPNet：属于编码器，每一层都读取）。</translation>
    </message>
    <message>
        <source>Buckets of a relative position bias table this layer keeps of its own, one number per bucket and head (UMT5: every layer&apos;s self-attention; LongT5&apos;s transient-global bias); 0: none beyond the stack&apos;s.</source>
        <translation>本层自有的相对位置偏置表的桶数，每个桶每个头一个数（UMT5：每一层的自注意力；LongT5 的瞬态全局偏置）；0：除层堆栈的偏置外没有。</translation>
    </message>
    <message>
        <source>A linear regression from every layer&apos;s attention maps to one output: a weight per layer and head, and a bias (ESM&apos;s contact-prediction head, L·a + 1), with the LM head or without.</source>
        <translation>从每一层的注意力图到单个输出的线性回归：每层每个头一个权重，外加一个偏置（ESM 的接触预测头，L·a + 1），有无 LM 头都可以。</translation>
    </message>
    <message>
        <source>Attention-map regression</source>
        <translation>注意力图回归</translation>
    </message>
    <message>
        <source>Block size</source>
        <translation>块大小</translation>
    </message>
    <message>
        <source>A second set of q, k and v projections, with the biases of the first, for the tokens that attend globally (Longformer, LED&apos;s encoder).</source>
        <translation>供全局注意力词元使用的第二组 q、k、v 投影，偏置与第一组相同（Longformer、LED 的编码器）。</translation>
    </message>
    <message>
        <source>Attention width</source>
        <translation>注意力宽度</translation>
    </message>
    <message>
        <source>CSV</source>
        <translation>CSV</translation>
    </message>
    <message>
        <source>CUDA context (bytes)</source>
        <translation>CUDA 上下文（字节）</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>修改</translation>
    </message>
    <message>
        <source>Channels</source>
        <translation>通道数</translation>
    </message>
    <message>
        <source>Chunk size</source>
        <translation>分块大小</translation>
    </message>
    <message>
        <source>Class token</source>
        <translation>类别 token</translation>
    </message>
    <message>
        <source>Colour channels (C).</source>
        <translation>颜色通道数（C）。</translation>
    </message>
    <message>
        <source>Concatenate</source>
        <translation>拼接</translation>
    </message>
    <message>
        <source>Content-to-position scores</source>
        <translation>内容到位置得分（c2p）</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <source>Context (tokens)</source>
        <translation>上下文长度（token）</translation>
    </message>
    <message>
        <source>Conv bias</source>
        <translation>卷积偏置</translation>
    </message>
    <message>
        <source>Conv kernel</source>
        <translation>卷积核</translation>
    </message>
    <message>
        <source>Copies</source>
        <translation>副本数</translation>
    </message>
    <message>
        <source>Copies of further steps fed from intermediate layers (Qwen3-VL&apos;s deepstack).</source>
        <translation>由中间层输入的后续步骤的副本数（Qwen3-VL 的 deepstack）。</translation>
    </message>
    <message>
        <source>Copies of these steps (one per layer fed).</source>
        <translation>这些步骤的副本数（每个输入层一个）。</translation>
    </message>
    <message>
        <source>Costs no parameters (xIELU: two learned scalars).</source>
        <translation>不产生参数（xIELU：两个可学习标量）。</translation>
    </message>
    <message>
        <source>Costs no parameters.</source>
        <translation>不产生参数。</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Data-parallel size of the layout.</source>
        <translation>该布局的数据并行大小。</translation>
    </message>
    <message>
        <source>Decoder</source>
        <translation>解码器</translation>
    </message>
    <message>
        <source>Decoder bias</source>
        <translation>解码器偏置</translation>
    </message>
    <message>
        <source>Decoder vocab</source>
        <translation>解码器词表</translation>
    </message>
    <message>
        <source>Decoder-only (Llama-style)</source>
        <translation>仅解码器（Llama 风格）</translation>
    </message>
    <message>
        <source>Dense FFN</source>
        <translation>稠密前馈网络</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>Disentangled attention</source>
        <translation>解耦注意力</translation>
    </message>
    <message>
        <source>Display name.</source>
        <translation>显示名称。</translation>
    </message>
    <message>
        <source>Dropout</source>
        <translation>Dropout</translation>
    </message>
    <message>
        <source>E numbers added to the router&apos;s scores to pick experts, kept as a parameter that never trains (ERNIE-4.5&apos;s e_score_correction_bias, requires_grad false): in the total and the weights, without gradients or optimizer states.</source>
        <translation>加到路由器得分上用于选择专家的 E 个数，作为从不训练的参数保存（ERNIE-4.5 的 e_score_correction_bias，requires_grad 为 false）：计入总数和权重，但没有梯度或优化器状态。</translation>
    </message>
    <message>
        <source>Each expert has three matrices (SwiGLU).</source>
        <translation>每个专家有三个矩阵（SwiGLU）。</translation>
    </message>
    <message>
        <source>Each key scored against the 2k relative positions (pos_att_type p2c).</source>
        <translation>每个键与 2k 个相对位置计算得分（pos_att_type p2c）。</translation>
    </message>
    <message>
        <source>Each query scored against the 2k relative positions (pos_att_type c2p).</source>
        <translation>每个查询与 2k 个相对位置计算得分（pos_att_type c2p）。</translation>
    </message>
    <message>
        <source>Each use&apos;s rank-r adapters on q, k and v too.</source>
        <translation>每次使用时 q、k、v 上也各有秩为 r 的适配器。</translation>
    </message>
    <message>
        <source>Embed width</source>
        <translation>嵌入宽度</translation>
    </message>
    <message>
        <source>Embedding norm</source>
        <translation>嵌入归一化</translation>
    </message>
    <message>
        <source>Embeddings</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>Encoder</source>
        <translation>编码器</translation>
    </message>
    <message>
        <source>Encoder layers</source>
        <translation>编码器层数</translation>
    </message>
    <message>
        <source>Encoder tokens</source>
        <translation>编码器 token 数</translation>
    </message>
    <message>
        <source>Encoder-decoder</source>
        <translation>编码器-解码器</translation>
    </message>
    <message>
        <source>Expand</source>
        <translation>扩展倍数</translation>
    </message>
    <message>
        <source>Expert bias</source>
        <translation>专家偏置</translation>
    </message>
    <message>
        <source>Expert parallel</source>
        <translation>专家并行</translation>
    </message>
    <message>
        <source>Expert width</source>
        <translation>专家宽度</translation>
    </message>
    <message>
        <source>Expert-parallel size: the routed experts are spread over ep of the data-parallel GPUs, each holding E/ep whole experts with their gradients and optimizer states (Megatron-LM); must divide N_d and the experts.</source>
        <translation>专家并行大小：路由专家分布在 ep 个数据并行 GPU 上，每个 GPU 保存 E/ep 个完整专家及其梯度和优化器状态（Megatron-LM）；必须整除 N_d 和专家数。</translation>
    </message>
    <message>
        <source>Experts</source>
        <translation>专家数</translation>
    </message>
    <message>
        <source>Experts per token</source>
        <translation>每 token 专家数</translation>
    </message>
    <message>
        <source>Extra rows</source>
        <translation>额外行数</translation>
    </message>
    <message>
        <source>Extra rows in a learned position table (OPT and BART keep 2).</source>
        <translation>可学习位置表中的额外行（OPT 和 BART 保留 2 行）。</translation>
    </message>
    <message>
        <source>Extra rows: 1 for a class token&apos;s position.</source>
        <translation>额外行：1 行用于类别 token 的位置。</translation>
    </message>
    <message>
        <source>FFN</source>
        <translation>前馈网络</translation>
    </message>
    <message>
        <source>FFN bias</source>
        <translation>前馈网络偏置</translation>
    </message>
    <message>
        <source>FFN width</source>
        <translation>前馈网络宽度</translation>
    </message>
    <message>
        <source>FLOPs per token</source>
        <translation>每 token FLOPs</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>系列</translation>
    </message>
    <message>
        <source>Feature layers</source>
        <translation>特征层</translation>
    </message>
    <message>
        <source>Final norm</source>
        <translation>最终归一化</translation>
    </message>
    <message>
        <source>FlashAttention</source>
        <translation>FlashAttention</translation>
    </message>
    <message>
        <source>Frames one patch spans (t): Qwen&apos;s Conv3d takes 2, an image repeated.</source>
        <translation>一个图像块跨越的帧数（t）：Qwen 的 Conv3d 取 2，图像重复一次。</translation>
    </message>
    <message>
        <source>Frames per patch</source>
        <translation>每 patch 帧数</translation>
    </message>
    <message>
        <source>Frozen correction bias</source>
        <translation>冻结的校正偏置</translation>
    </message>
    <message>
        <source>Frozen positions</source>
        <translation>冻结的位置编码</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPU kind (catalog id) for time and capacity.</source>
        <translation>GPU 型号（目录 id），用于计算时间和容量。</translation>
    </message>
    <message>
        <source>GPU kind (catalog id).</source>
        <translation>GPU 型号（目录 id）。</translation>
    </message>
    <message>
        <source>GPU kind, as the catalog names it.</source>
        <translation>GPU 型号，按目录中的名称。</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>GPUs of the scenario; data parallel = gpus / (tp·pp).</source>
        <translation>场景的 GPU 数量；数据并行 = gpus / (tp·pp)。</translation>
    </message>
    <message>
        <source>Gate blocks</source>
        <translation>门控块数</translation>
    </message>
    <message>
        <source>Gated</source>
        <translation>门控</translation>
    </message>
    <message>
        <source>Gated DeltaNet</source>
        <translation>Gated DeltaNet</translation>
    </message>
    <message>
        <source>Gated norm</source>
        <translation>门控归一化</translation>
    </message>
    <message>
        <source>Generated tokens</source>
        <translation>生成 token 数</translation>
    </message>
    <message>
        <source>Global q, k, v</source>
        <translation>全局 q、k、v</translation>
    </message>
    <message>
        <source>Gradient dtype</source>
        <translation>梯度数据类型</translation>
    </message>
    <message>
        <source>Gradient storage: bf16 (ZeRO paper) or fp32 (Megatron, llm-analysis).</source>
        <translation>梯度存储类型：bf16（ZeRO 论文）或 fp32（Megatron、llm-analysis）。</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>组数</translation>
    </message>
    <message>
        <source>Groups of one repetition; the group repeats them `count` times.</source>
        <translation>一次重复中的层组；该组将它们重复 `count` 次。</translation>
    </message>
    <message>
        <source>Groups sharing B and C (G).</source>
        <translation>共享 B 和 C 的组数（G）。</translation>
    </message>
    <message>
        <source>HF use_cache</source>
        <translation>HF use_cache</translation>
    </message>
    <message>
        <source>HTML page</source>
        <translation>HTML 网页</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>输出头</translation>
    </message>
    <message>
        <source>Head width</source>
        <translation>头维度</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>头数</translation>
    </message>
    <message>
        <source>Heads (H); head width P = I / H.</source>
        <translation>头数（H）；头维度 P = I / H。</translation>
    </message>
    <message>
        <source>Heads of DeepSeek-V3.2&apos;s lightning indexer (n_i), which picks the tokens each query attends to; 0 means none (dense MLA).</source>
        <translation>DeepSeek-V3.2 闪电索引器的头数（n_i），它为每个查询挑选要关注的 token；0 表示无（稠密 MLA）。</translation>
    </message>
    <message>
        <source>Heads of the linear attention (a).</source>
        <translation>线性注意力的头数（a）。</translation>
    </message>
    <message>
        <source>Hidden size</source>
        <translation>隐藏层维度</translation>
    </message>
    <message>
        <source>Holds the weights</source>
        <translation>持有权重</translation>
    </message>
    <message>
        <source>How an embed width other than the hidden size reaches it: bias-free projections in and out (OPT-350m); lookups at the embed width, then a bias-free projection in (DeBERTa-v2); lookups and their norm at the embed width, then a biased projection in (ELECTRA).</source>
        <translation>嵌入宽度与隐藏层维度不同时如何映射：无偏置的输入和输出投影（OPT-350m）；以嵌入宽度查表，再经无偏置的输入投影（DeBERTa-v2）；以嵌入宽度查表并归一化，再经带偏置的输入投影（ELECTRA）。</translation>
    </message>
    <message>
        <source>How many GPUs of this kind.</source>
        <translation>该型号 GPU 的数量。</translation>
    </message>
    <message>
        <source>How positions exchange information.</source>
        <translation>各位置之间如何交换信息。</translation>
    </message>
    <message>
        <source>How the model is split: TP tensor parallel (within a node of 8, dividing the heads), PP pipeline stages, DP data-parallel copies with their ZeRO stage. Inference puts one copy over all the GPUs; training takes the cheapest layout in communication that fits.</source>
        <translation>模型的切分方式：TP 张量并行（在 8 卡节点内，整除头数），PP 流水线阶段，DP 数据并行副本及其 ZeRO 阶段。推理时将一个副本分布到所有 GPU 上；训练时选取放得下且通信开销最小的布局。</translation>
    </message>
    <message>
        <source>How training FLOPs count attention: full = each query over all s keys, as PaLM (Chowdhery et al. 2022, appendix B) and Megatron-LM (Narayanan et al. 2021) count the MFUs they publish, so a time at a published MFU is one; causal = the unmasked half a causal mask leaves (Kaplan et al. 2020). Both are reported; this one sets the run&apos;s FLOPs and its time.</source>
        <translation>训练 FLOPs 如何计入注意力：full = 每个查询对全部 s 个键，与 PaLM（Chowdhery 等，2022，附录 B）和 Megatron-LM（Narayanan 等，2021）计算其公布的 MFU 的方式一致，因此按公布的 MFU 得到的时间与之可比；causal = 因果掩码留下的未屏蔽一半（Kaplan 等，2020）。两者都会给出；此项决定训练的 FLOPs 和时间。</translation>
    </message>
    <message>
        <source>Hugging Face&apos;s use_cache, on by default in its configs, runs in training too: K and V are copied into a cache. Under hf-sdpa GPT-2&apos;s query, a view of the fused c_attn output, then keeps all of it alive beside the copies: 2·B·g·d_h more per token and layer (measured). Off: model.config.use_cache = False (gradient checkpointing turns it off too).</source>
        <translation>Hugging Face 的 use_cache 在其配置中默认开启，训练时同样生效：K 和 V 会被复制到缓存中。在 hf-sdpa 下，GPT-2 的查询是融合 c_attn 输出的一个视图，会让整个输出与这些副本一起保留：每个 token 每层多出 2·B·g·d_h（实测）。关闭：model.config.use_cache = False（梯度检查点也会关闭它）。</translation>
    </message>
    <message>
        <source>I = expand × hidden when the width is empty.</source>
        <translation>宽度留空时 I = expand × hidden。</translation>
    </message>
    <message>
        <source>Image size</source>
        <translation>图像尺寸</translation>
    </message>
    <message>
        <source>Image size (pixels)</source>
        <translation>图像尺寸（像素）</translation>
    </message>
    <message>
        <source>Images in each sequence (a vision-language model): each puts its image tokens in the context beside the text&apos;s — (image/p)² patches over the projector&apos;s merges, Gemma-3&apos;s 256 — or, for Mllama, in its cross-attention&apos;s cache.</source>
        <translation>每个序列中的图像数（视觉语言模型）：每张图像的图像 token 与文本一起放入上下文——(图像尺寸/p)² 个图像块除以投影器的合并倍数，Gemma-3 为 256——Mllama 则放入其交叉注意力缓存。</translation>
    </message>
    <message>
        <source>Images per sequence</source>
        <translation>每序列图像数</translation>
    </message>
    <message>
        <source>In and out</source>
        <translation>输入与输出</translation>
    </message>
    <message>
        <source>In order, from the tower&apos;s width e.</source>
        <translation>按顺序，从视觉塔宽度 e 开始。</translation>
    </message>
    <message>
        <source>In order, from the tower&apos;s width.</source>
        <translation>按顺序，从视觉塔宽度开始。</translation>
    </message>
    <message>
        <source>In order.</source>
        <translation>按顺序。</translation>
    </message>
    <message>
        <source>In width</source>
        <translation>输入宽度</translation>
    </message>
    <message>
        <source>In with bias, norm before</source>
        <translation>输入带偏置，前置归一化</translation>
    </message>
    <message>
        <source>In, norm after</source>
        <translation>输入，后置归一化</translation>
    </message>
    <message>
        <source>Indexer heads</source>
        <translation>索引器头数</translation>
    </message>
    <message>
        <source>Indexer width</source>
        <translation>索引器宽度</translation>
    </message>
    <message>
        <source>Inference, when asked for: the most sequences at the scenario&apos;s context (and generated tokens) whose KV cache and activations still fit beside the weights; 0: not even one.</source>
        <translation>推理（按需计算）：在场景的上下文长度（及生成 token）下，KV 缓存和激活值与权重一起仍放得下的最多序列数；0：一条也放不下。</translation>
    </message>
    <message>
        <source>Inference: generated tokens per second for the whole batch, a roofline bound: each step reads the active weights and the KV cache (context + generated tokens) once, or computes the batch&apos;s tokens, whichever is longer; kernels and scheduling make real servers slower.</source>
        <translation>推理：整个批次每秒生成的 token 数，为屋顶线上界：每步读取一次激活权重和 KV 缓存（上下文 + 生成 token），或计算批次的 token，取较长者；实际服务受算子和调度影响会更慢。</translation>
    </message>
    <message>
        <source>Inference: seconds to read the batch&apos;s prompts (b·s tokens) at the scenario&apos;s MFU on the GPUs of each pipeline stage in turn, at least one read of the weights.</source>
        <translation>推理：按场景的 MFU 在各流水线阶段的 GPU 上依次处理批次提示词（b·s 个 token）所需的秒数，至少为读取一遍权重的时间。</translation>
    </message>
    <message>
        <source>Inference: the longest context (tokens per sequence, at the scenario&apos;s batch) whose KV cache and activations still fit beside the weights, up to the model&apos;s maximum positions or the scenario&apos;s context where that is longer (so a setup fits exactly when it reaches the context); 0: not even one token fits.</source>
        <translation>推理：在场景的批大小下，KV 缓存和激活值与权重一起仍放得下的最长上下文（每序列 token 数），上限为模型的最大位置数或场景上下文中较长者（因此配置恰好在达到该上下文时放得下）；0：连一个 token 都放不下。</translation>
    </message>
    <message>
        <source>Inner norm</source>
        <translation>内部归一化</translation>
    </message>
    <message>
        <source>Inner width</source>
        <translation>内部宽度</translation>
    </message>
    <message>
        <source>Input channels of the first conv.</source>
        <translation>第一个卷积的输入通道数。</translation>
    </message>
    <message>
        <source>Input width</source>
        <translation>输入宽度</translation>
    </message>
    <message>
        <source>Interleaved pipeline (Megatron-LM virtual stages, v): each GPU holds v chunks of layers; the first stage keeps 1 + (p − 1)/(p·v) times the activations of plain 1F1B.</source>
        <translation>交错流水线（Megatron-LM 虚拟阶段，v）：每个 GPU 保存 v 段层；第一阶段保留的激活值是普通 1F1B 的 1 + (p − 1)/(p·v) 倍。</translation>
    </message>
    <message>
        <source>Intermediate width (f).</source>
        <translation>中间层宽度（f）。</translation>
    </message>
    <message>
        <source>Intermediate width of one expert (f_e).</source>
        <translation>单个专家的中间层宽度（f_e）。</translation>
    </message>
    <message>
        <source>Its own projection of the relative positions for content-to-position scores (pos_key_proj: c2p without share_att_key).</source>
        <translation>用于内容到位置分数的相对位置独立投影（pos_key_proj：未设 share_att_key 时的 c2p）。</translation>
    </message>
    <message>
        <source>Its own projection of the relative positions for position-to-content scores (pos_query_proj: p2c without share_att_key).</source>
        <translation>用于位置到内容分数的相对位置独立投影（pos_query_proj：未设 share_att_key 时的 p2c）。</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>KV cache + recurrent state</source>
        <translation>KV 缓存 + 循环状态</translation>
    </message>
    <message>
        <source>KV cache and recurrent state on that GPU</source>
        <translation>该 GPU 上的 KV 缓存和循环状态</translation>
    </message>
    <message>
        <source>KV cache dtype</source>
        <translation>KV 缓存数据类型</translation>
    </message>
    <message>
        <source>KV cache per GPU</source>
        <translation>每块 GPU 的 KV 缓存</translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV 头数</translation>
    </message>
    <message>
        <source>KV rank</source>
        <translation>KV 秩</translation>
    </message>
    <message>
        <source>Keep the token embedding and LM head at 16 bits when quantizing.</source>
        <translation>量化时将词嵌入和语言模型输出头保留为 16 位。</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>卷积核</translation>
    </message>
    <message>
        <source>Kernel width of both convolutions.</source>
        <translation>两个卷积的卷积核宽度。</translation>
    </message>
    <message>
        <source>Key (and query) heads (n_k).</source>
        <translation>键（和查询）头数（n_k）。</translation>
    </message>
    <message>
        <source>Key heads</source>
        <translation>Key 头数</translation>
    </message>
    <message>
        <source>Key width</source>
        <translation>Key 维度</translation>
    </message>
    <message>
        <source>Key/value heads (g), and the query heads of one expert.</source>
        <translation>键/值头数（g），以及单个专家的查询头数。</translation>
    </message>
    <message>
        <source>Key/value heads (g): a for MHA, 1 for MQA. Empty means a.</source>
        <translation>键/值头数（g）：MHA 为 a，MQA 为 1。留空表示 a。</translation>
    </message>
    <message>
        <source>Key/value heads (g); empty means a.</source>
        <translation>键/值头数（g）；留空表示 a。</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>LM head</source>
        <translation>输出头</translation>
    </message>
    <message>
        <source>Layer group</source>
        <translation>层组</translation>
    </message>
    <message>
        <source>Layer groups</source>
        <translation>层组</translation>
    </message>
    <message>
        <source>Layer scales</source>
        <translation>层缩放</translation>
    </message>
    <message>
        <source>LayerNorm</source>
        <translation>LayerNorm</translation>
    </message>
    <message>
        <source>LayerNorm has γ and β; RMSNorm only γ.</source>
        <translation>LayerNorm 有 γ 和 β；RMSNorm 只有 γ。</translation>
    </message>
    <message>
        <source>LayerNorm β</source>
        <translation>LayerNorm β</translation>
    </message>
    <message>
        <source>LayerNorm&apos;s β (RMSNorm has none).</source>
        <translation>LayerNorm 的 β（RMSNorm 没有）。</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Layers in the group (with a pattern: its repetitions).</source>
        <translation>层组中的层数（有模式时：其重复次数）。</translation>
    </message>
    <message>
        <source>Layers in the stack: more go to the last layer group, fewer are cut from the end (the tree below splits and converts groups).</source>
        <translation>堆栈中的层数：增加的层加到最后一个层组，减少的层从末尾删去（下方的树可拆分和转换层组）。</translation>
    </message>
    <message>
        <source>Layers of the encoder; with several layer groups the largest changes (a pattern by whole repetitions), the others stay.</source>
        <translation>编码器的层数；有多个层组时改变最大的一组（模式按整次重复），其余不变。</translation>
    </message>
    <message>
        <source>Layers of the main stack (the decoder; an encoder-only model&apos;s encoder); with several layer groups the largest changes (a pattern by whole repetitions), the others stay.</source>
        <translation>主堆栈的层数（解码器；仅编码器模型为编码器）；有多个层组时改变最大的一组（模式按整次重复），其余不变。</translation>
    </message>
    <message>
        <source>Learned per-channel scale vectors of h in one block, on the residual branches (InternViT&apos;s λ1 and λ2: 2).</source>
        <translation>单个块中残差分支上可学习的逐通道缩放向量，长度为 h（InternViT 的 λ1 和 λ2：2 个）。</translation>
    </message>
    <message>
        <source>Learned scalar gates in one block (Mllama&apos;s tanh gates on the attention and MLP outputs: 2).</source>
        <translation>单个块中可学习的标量门控（Mllama 在注意力和 MLP 输出上的 tanh 门控：2 个）。</translation>
    </message>
    <message>
        <source>Learned vector</source>
        <translation>可学习向量</translation>
    </message>
    <message>
        <source>Learned weights</source>
        <translation>可学习权重</translation>
    </message>
    <message>
        <source>Lightning attention</source>
        <translation>Lightning 注意力</translation>
    </message>
    <message>
        <source>Linear</source>
        <translation>线性</translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>LoRA rank (r): adds r·(d_in + d_out) per matrix.</source>
        <translation>LoRA 秩（r）：每个矩阵增加 r·(d_in + d_out)。</translation>
    </message>
    <message>
        <source>LoRA targets</source>
        <translation>LoRA 目标</translation>
    </message>
    <message>
        <source>LoRA updates in this block.</source>
        <translation>本块中的 LoRA 更新。</translation>
    </message>
    <message>
        <source>Longest context; rows of a learned position table.</source>
        <translation>最长上下文；可学习位置表的行数。</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>MLA</source>
        <translation>MLA</translation>
    </message>
    <message>
        <source>MTP</source>
        <translation>MTP</translation>
    </message>
    <message>
        <source>MTP modules</source>
        <translation>MTP 模块</translation>
    </message>
    <message>
        <source>Mamba</source>
        <translation>Mamba</translation>
    </message>
    <message>
        <source>Mamba-2</source>
        <translation>Mamba-2</translation>
    </message>
    <message>
        <source>Maps the vision tower&apos;s output to the hidden size (LLaVA&apos;s MLP, Qwen&apos;s patch merger, Gemma-3&apos;s pooled projection).</source>
        <translation>将视觉塔的输出映射到隐藏层维度（LLaVA 的 MLP、Qwen 的 patch merger、Gemma-3 的池化投影）。</translation>
    </message>
    <message>
        <source>Markdown</source>
        <translation>Markdown</translation>
    </message>
    <message>
        <source>Matrices that get LoRA adapters.</source>
        <translation>加 LoRA 适配器的矩阵。</translation>
    </message>
    <message>
        <source>Matrices that get a low-rank update.</source>
        <translation>做低秩更新的矩阵。</translation>
    </message>
    <message>
        <source>Max positions</source>
        <translation>最大位置数</translation>
    </message>
    <message>
        <source>Megatron vocab padding</source>
        <translation>Megatron 词表填充</translation>
    </message>
    <message>
        <source>Megatron-LM pads the vocabulary to a multiple of 128·t (make-vocab-size-divisible-by 128): extra embedding and LM-head rows, their gradients, optimizer states and logits.</source>
        <translation>Megatron-LM 将词表填充到 128·t 的倍数（--make-vocab-size-divisible-by 128）：额外的嵌入和输出头行，及其梯度、优化器状态和 logits。</translation>
    </message>
    <message>
        <source>Mel bins</source>
        <translation>Mel 频带数</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>每块 GPU 显存</translation>
    </message>
    <message>
        <source>Memory the busiest GPU needs in this layout (weights, KV cache, activations, training states, runtime overhead).</source>
        <translation>该布局下最忙的 GPU 所需显存（权重、KV 缓存、激活值、训练状态、运行时开销）。</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>合并</translation>
    </message>
    <message>
        <source>Micro-batches</source>
        <translation>微批次数</translation>
    </message>
    <message>
        <source>Micro-batches per step (gradient accumulation): with fewer than p, a stage keeps at most that many in flight; empty means at least p.</source>
        <translation>每步的微批次数（梯度累积）：少于 p 时，每个阶段同时处理的微批次最多为该数；留空表示至少 p。</translation>
    </message>
    <message>
        <source>Mixer</source>
        <translation>混合器</translation>
    </message>
    <message>
        <source>Mixture of attention heads</source>
        <translation>注意力头混合专家（MoA）</translation>
    </message>
    <message>
        <source>Mixture of experts</source>
        <translation>混合专家</translation>
    </message>
    <message>
        <source>Mllama&apos;s per-tile position and tile tables.</source>
        <translation>Mllama 的逐图块位置表和图块表。</translation>
    </message>
    <message>
        <source>MoE experts</source>
        <translation>MoE 专家</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Model FLOPs utilization: the share of the GPUs&apos; peak bf16 FLOP/s reached. It turns FLOPs into time: a training run&apos;s (attention counted by the attention FLOPs convention), a prefill&apos;s and a compute-bound decode step&apos;s (0.3–0.5 is typical in training).</source>
        <translation>模型 FLOPs 利用率（MFU）：达到的 GPU bf16 峰值 FLOP/s 的比例。它把 FLOPs 换算成时间：训练（注意力按注意力 FLOPs 约定计入）、预填充以及计算受限的解码步（训练中通常为 0.3–0.5）。</translation>
    </message>
    <message>
        <source>Model family (Hugging Face model_type) if known.</source>
        <translation>模型系列（Hugging Face 的 model_type），如已知。</translation>
    </message>
    <message>
        <source>Model width (h, d_model).</source>
        <translation>模型宽度（h，d_model）。</translation>
    </message>
    <message>
        <source>Modules</source>
        <translation>模块数</translation>
    </message>
    <message>
        <source>Most tiles per image (T, max_num_tiles).</source>
        <translation>每张图像的最多图块数（T，max_num_tiles）。</translation>
    </message>
    <message>
        <source>Multi-token prediction</source>
        <translation>多 token 预测</translation>
    </message>
    <message>
        <source>Multi-token prediction modules, counted apart.</source>
        <translation>多 token 预测（MTP）模块，单独计数。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Name of the base block; empty means the enclosing one.</source>
        <translation>基础块的名称；留空表示外层的块。</translation>
    </message>
    <message>
        <source>Named base blocks the layer groups start from.</source>
        <translation>层组起始所用的具名基础块。</translation>
    </message>
    <message>
        <source>New tokens added to the vocabulary (counted as added).</source>
        <translation>新增到词表中的 token（计为新增参数）。</translation>
    </message>
    <message>
        <source>No FFN</source>
        <translation>无前馈网络</translation>
    </message>
    <message>
        <source>No mixer</source>
        <translation>无混合器</translation>
    </message>
    <message>
        <source>No-rope width</source>
        <translation>非 RoPE 维度</translation>
    </message>
    <message>
        <source>Non-rotary part of a q/k head (d_nope).</source>
        <translation>q/k 头中的非旋转部分（d_nope）。</translation>
    </message>
    <message>
        <source>Norm</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>Norms</source>
        <translation>层归一化</translation>
    </message>
    <message>
        <source>Norms in one block (Gemma-2: 4; Falcon-7B: 1; T5 decoder: 3).</source>
        <translation>单个块中的归一化层数（Gemma-2：4；Falcon-7B：1；T5 解码器：3）。</translation>
    </message>
    <message>
        <source>Norms per block</source>
        <translation>每块归一化数</translation>
    </message>
    <message>
        <source>On the attention and FFN outputs before each residual add (hidden_dropout, resid_pdrop, hidden_dropout_prob, dropout): above 0 keeps two h masks per token and layer.</source>
        <translation>作用于注意力和前馈网络输出、每次残差相加之前（hidden_dropout、resid_pdrop、hidden_dropout_prob、dropout）：大于 0 时每个 token 每层保留两个长度为 h 的掩码。</translation>
    </message>
    <message>
        <source>On the attention probabilities (attention_dropout, attn_pdrop, attention_probs_dropout_prob): above 0 keeps an a·s mask per token and layer.</source>
        <translation>作用于注意力概率（attention_dropout、attn_pdrop、attention_probs_dropout_prob）：大于 0 时每个 token 每层保留一个 a·s 的掩码。</translation>
    </message>
    <message>
        <source>One bias of h on the experts&apos; output.</source>
        <translation>专家输出上一个长度为 h 的偏置。</translation>
    </message>
    <message>
        <source>One bias of h on the experts&apos; summed output (JetMoE).</source>
        <translation>专家输出之和上一个长度为 h 的偏置（JetMoE）。</translation>
    </message>
    <message>
        <source>Only what differs from the base block, as a nested mapping of its fields.</source>
        <translation>仅与基础块不同的部分，以其字段的嵌套映射表示。</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Out width</source>
        <translation>输出宽度</translation>
    </message>
    <message>
        <source>Output bias</source>
        <translation>输出偏置</translation>
    </message>
    <message>
        <source>Output gate</source>
        <translation>输出门</translation>
    </message>
    <message>
        <source>Outputs per token of a dense h→h and a linear classifier after it, with biases (ELECTRA&apos;s replaced-token discriminator: 1).</source>
        <translation>每个 token 经一个 h→h dense 层及其后的线性分类器的输出数，均带偏置（ELECTRA 的替换 token 判别器：1）。</translation>
    </message>
    <message>
        <source>Own embedding</source>
        <translation>独立嵌入</translation>
    </message>
    <message>
        <source>Own head</source>
        <translation>独立输出头</translation>
    </message>
    <message>
        <source>PNG image</source>
        <translation>PNG 图像</translation>
    </message>
    <message>
        <source>Parallel mixer</source>
        <translation>并行混合器</translation>
    </message>
    <message>
        <source>Patch</source>
        <translation>Patch 大小</translation>
    </message>
    <message>
        <source>Patch embedding</source>
        <translation>Patch 嵌入</translation>
    </message>
    <message>
        <source>Patch inputs</source>
        <translation>图像块输入数</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Per-GPU runtime overhead: CUDA context and library workspaces (0.3–1 GiB).</source>
        <translation>每个 GPU 的运行时开销：CUDA 上下文和库工作区（0.3–1 GiB）。</translation>
    </message>
    <message>
        <source>Pipeline parallel</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <source>Pipeline-parallel size (p): layers split into p stages.</source>
        <translation>流水线并行大小（p）：层被分为 p 个阶段。</translation>
    </message>
    <message>
        <source>Pipeline-parallel size of the layout.</source>
        <translation>该布局的流水线并行大小。</translation>
    </message>
    <message>
        <source>Pixels per side of a patch (p).</source>
        <translation>图像块每边的像素数（p）。</translation>
    </message>
    <message>
        <source>Pixels per side of the image (or tile) the tower is made for: (image/p)² patches. The memory tab&apos;s image size starts here.</source>
        <translation>视觉塔设计输入的图像（或图块）每边像素数：(图像尺寸/p)² 个图像块。显存页的图像尺寸从这里开始。</translation>
    </message>
    <message>
        <source>Placement</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Pooler</source>
        <translation>池化层</translation>
    </message>
    <message>
        <source>Position encoding; only a learned table has weights.</source>
        <translation>位置编码；只有可学习位置表有权重。</translation>
    </message>
    <message>
        <source>Position key projection</source>
        <translation>位置键投影</translation>
    </message>
    <message>
        <source>Position offset</source>
        <translation>位置偏移</translation>
    </message>
    <message>
        <source>Position query projection</source>
        <translation>位置查询投影</translation>
    </message>
    <message>
        <source>Position rows</source>
        <translation>位置行数</translation>
    </message>
    <message>
        <source>Position-to-content scores</source>
        <translation>位置到内容得分（p2c）</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>Post-norm</source>
        <translation>后归一化</translation>
    </message>
    <message>
        <source>Pre-norm</source>
        <translation>前归一化</translation>
    </message>
    <message>
        <source>Prediction modules (num_nextn_predict_layers).</source>
        <translation>预测模块数（num_nextn_predict_layers）。</translation>
    </message>
    <message>
        <source>Projection</source>
        <translation>投影</translation>
    </message>
    <message>
        <source>Projection bias</source>
        <translation>投影偏置</translation>
    </message>
    <message>
        <source>Projector</source>
        <translation>投影器</translation>
    </message>
    <message>
        <source>Projector branch</source>
        <translation>投影器分支</translation>
    </message>
    <message>
        <source>QLoRA</source>
        <translation>QLoRA</translation>
    </message>
    <message>
        <source>QLoRA: the frozen base in NF4 with double quantization unless a format is set.</source>
        <translation>QLoRA：冻结的基座采用带双重量化的 NF4，除非设置了量化格式。</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>Query heads (a).</source>
        <translation>查询头数（a）。</translation>
    </message>
    <message>
        <source>RG-LRU</source>
        <translation>RG-LRU</translation>
    </message>
    <message>
        <source>RMSNorm</source>
        <translation>RMSNorm</translation>
    </message>
    <message>
        <source>RMSNorm over w_in and h</source>
        <translation>对 w_in 与 h 的 RMSNorm</translation>
    </message>
    <message>
        <source>RMSNorms over Δ, B and C inside the mixer (Jamba).</source>
        <translation>混合器内部对 Δ、B 和 C 的 RMSNorm（Jamba）。</translation>
    </message>
    <message>
        <source>RWKV channel mix</source>
        <translation>RWKV 通道混合</translation>
    </message>
    <message>
        <source>RWKV time mix</source>
        <translation>RWKV 时间混合</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>秩</translation>
    </message>
    <message>
        <source>Rank of the compressed KV latent (r_kv).</source>
        <translation>压缩 KV 潜变量的秩（r_kv）。</translation>
    </message>
    <message>
        <source>Rank of the query down-projection (r_q); empty means direct q.</source>
        <translation>查询下投影的秩（r_q）；留空表示直接投影 q。</translation>
    </message>
    <message>
        <source>Rank of the Δ projection (R); empty means ⌈hidden / 16⌉.</source>
        <translation>Δ 投影的秩（R）；留空表示 ⌈hidden / 16⌉。</translation>
    </message>
    <message>
        <source>Rank r of each use&apos;s adapter on the MLP&apos;s gate/up (Zamba2).</source>
        <translation>每次使用时 MLP 的 gate/up 上适配器的秩 r（Zamba2）。</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>Recurrence width</source>
        <translation>循环宽度</translation>
    </message>
    <message>
        <source>Recurrent state</source>
        <translation>循环状态</translation>
    </message>
    <message>
        <source>Relative buckets</source>
        <translation>相对位置桶数</translation>
    </message>
    <message>
        <source>Relative norm</source>
        <translation>相对位置归一化</translation>
    </message>
    <message>
        <source>Relative positions each side the scores read (k, att_span: position_buckets, else max_relative_positions): 2k rows of the stack&apos;s relative table; 0 without relative attention.</source>
        <translation>得分读取的每侧相对位置数（k，att_span：取 position_buckets，否则 max_relative_positions）：栈的相对位置表中的 2k 行；无相对注意力时为 0。</translation>
    </message>
    <message>
        <source>Relative rows</source>
        <translation>相对位置行数</translation>
    </message>
    <message>
        <source>Relative span</source>
        <translation>相对位置跨度</translation>
    </message>
    <message>
        <source>Residual dropout</source>
        <translation>残差 dropout</translation>
    </message>
    <message>
        <source>RoPE</source>
        <translation>RoPE</translation>
    </message>
    <message>
        <source>Rope width</source>
        <translation>RoPE 维度</translation>
    </message>
    <message>
        <source>Rotary part of a q/k head (d_rope).</source>
        <translation>q/k 头中的旋转部分（d_rope）。</translation>
    </message>
    <message>
        <source>Rotary positions (no parameters).</source>
        <translation>旋转位置编码（无参数）。</translation>
    </message>
    <message>
        <source>Rotary positions (no parameters); off for NoPE layers.</source>
        <translation>旋转位置编码（无参数）；NoPE 层关闭。</translation>
    </message>
    <message>
        <source>Rotary share</source>
        <translation>旋转编码占比</translation>
    </message>
    <message>
        <source>Routed experts (E).</source>
        <translation>路由专家数（E）。</translation>
    </message>
    <message>
        <source>Routed experts per token (k).</source>
        <translation>每个 token 激活的路由专家数（k）。</translation>
    </message>
    <message>
        <source>Router</source>
        <translation>路由器</translation>
    </message>
    <message>
        <source>Router bias</source>
        <translation>路由器偏置</translation>
    </message>
    <message>
        <source>Rows of a learned position table: the patches of one image (Qwen3-VL: its own number, interpolated).</source>
        <translation>可学习位置表的行数：一张图像的图像块数（Qwen3-VL：自有数值，经插值）。</translation>
    </message>
    <message>
        <source>Rows of a relative position table of width h that every layer reads (DeBERTa&apos;s rel_embeddings: twice the position buckets).</source>
        <translation>每层都读取的宽度为 h 的相对位置表的行数（DeBERTa 的 rel_embeddings：位置桶数的两倍）。</translation>
    </message>
    <message>
        <source>Rows of the decoder&apos;s own token embedding, apart from the encoder&apos;s (Marian without shared embeddings); the head predicts these.</source>
        <translation>解码器独立的词嵌入行数，与编码器的分开（Marian 未共享嵌入时）；输出头预测这些 token。</translation>
    </message>
    <message>
        <source>Rows of the tile tables (A): one per aspect-ratio id, padding included (max_aspect_ratio_id + 1).</source>
        <translation>图块表的行数（A）：每个宽高比 id 一行，含填充（max_aspect_ratio_id + 1）。</translation>
    </message>
    <message>
        <source>Rows of the token embedding (and of an untied head).</source>
        <translation>词嵌入的行数（及未绑定输出头的行数）。</translation>
    </message>
    <message>
        <source>Rows of the token embedding past the vocabulary the head predicts (Mllama&apos;s 8 image tokens: 128,264 rows, a head of 128,256).</source>
        <translation>词嵌入中超出输出头所预测词表的行（Mllama 的 8 个图像 token：128,264 行，输出头为 128,256）。</translation>
    </message>
    <message>
        <source>Runtime overhead</source>
        <translation>运行时开销</translation>
    </message>
    <message>
        <source>SSM / linear attn</source>
        <translation>SSM / 线性注意力</translation>
    </message>
    <message>
        <source>SSM heads</source>
        <translation>SSM 头数</translation>
    </message>
    <message>
        <source>SSM state size per channel (N).</source>
        <translation>每个通道的 SSM 状态大小（N）。</translation>
    </message>
    <message>
        <source>SSM state size per head channel (N).</source>
        <translation>每个头通道的 SSM 状态大小（N）。</translation>
    </message>
    <message>
        <source>SVG image</source>
        <translation>SVG 图像</translation>
    </message>
    <message>
        <source>Scalar gates</source>
        <translation>标量门</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Schema version</source>
        <translation>模式版本</translation>
    </message>
    <message>
        <source>Sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>Sequences at once (b) of the scenario.</source>
        <translation>场景中同时处理的序列数（b）。</translation>
    </message>
    <message>
        <source>Sequences at once (b): concurrent requests, or the training micro-batch.</source>
        <translation>同时处理的序列数（b）：并发请求数，或训练的微批大小。</translation>
    </message>
    <message>
        <source>Serve the model (weights + KV cache) or train it.</source>
        <translation>部署推理（权重 + KV 缓存）或训练模型。</translation>
    </message>
    <message>
        <source>Shard the norm and dropout activations over the TP group too.</source>
        <translation>将归一化和 dropout 的激活值也在张量并行组内切分。</translation>
    </message>
    <message>
        <source>Share of a GPU&apos;s usable memory a run may fill (serving engines reserve ~90%).</source>
        <translation>一次运行可占用的 GPU 可用显存比例（推理引擎通常预留约 90%）。</translation>
    </message>
    <message>
        <source>Share of a head that is rotated (Phi-2: 0.4).</source>
        <translation>头中被旋转的比例（Phi-2：0.4）。</translation>
    </message>
    <message>
        <source>Shared bias</source>
        <translation>共享偏置</translation>
    </message>
    <message>
        <source>Shared experts</source>
        <translation>共享专家</translation>
    </message>
    <message>
        <source>Shared gate</source>
        <translation>共享门</translation>
    </message>
    <message>
        <source>Shared transformer</source>
        <translation>共享 Transformer 块</translation>
    </message>
    <message>
        <source>Shared width</source>
        <translation>共享专家宽度</translation>
    </message>
    <message>
        <source>Short conv</source>
        <translation>短卷积</translation>
    </message>
    <message>
        <source>Sinks</source>
        <translation>Sink</translation>
    </message>
    <message>
        <source>Stack</source>
        <translation>堆栈</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态维度</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Storage type of the KV cache.</source>
        <translation>KV 缓存的存储类型。</translation>
    </message>
    <message>
        <source>Storage type of the weights (training: of the trainable weights and activations).</source>
        <translation>权重的存储类型（训练时：可训练权重和激活值的存储类型）。</translation>
    </message>
    <message>
        <source>Taps of the depthwise causal conv (K; LFM2&apos;s conv_L_cache).</source>
        <translation>深度因果卷积的抽头数（K；LFM2 的 conv_L_cache）。</translation>
    </message>
    <message>
        <source>Taps of the depthwise conv (K).</source>
        <translation>深度卷积的抽头数（K）。</translation>
    </message>
    <message>
        <source>Targets</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Task types</source>
        <translation>任务类型数</translation>
    </message>
    <message>
        <source>Task-type embedding rows, added to every token&apos;s embedding as the token types are (ERNIE 3.0 with use_task_id: 3).</source>
        <translation>任务类型嵌入的行数，与 token 类型一样加到每个 token 的嵌入上（ERNIE 3.0 开启 use_task_id 时为 3）。</translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>Tensor-parallel size (t): matrices split over t GPUs; must divide the heads.</source>
        <translation>张量并行大小（t）：矩阵切分到 t 个 GPU 上；必须整除头数。</translation>
    </message>
    <message>
        <source>Tensor-parallel size of the layout.</source>
        <translation>该布局的张量并行大小。</translation>
    </message>
    <message>
        <source>The bidirectional stack, if any.</source>
        <translation>双向堆栈（如有）。</translation>
    </message>
    <message>
        <source>The block each module holds.</source>
        <translation>每个模块包含的块。</translation>
    </message>
    <message>
        <source>The block its groups start from.</source>
        <translation>其层组起始所用的块。</translation>
    </message>
    <message>
        <source>The causal stack (decoder-only models: all).</source>
        <translation>因果堆栈（仅解码器模型：全部层）。</translation>
    </message>
    <message>
        <source>The checkpoint stores its own copy.</source>
        <translation>检查点保存了自己的一份副本。</translation>
    </message>
    <message>
        <source>The checkpoint stores its own head copy.</source>
        <translation>检查点保存了自己的输出头副本。</translation>
    </message>
    <message>
        <source>The gated RMSNorm over I before out_proj.</source>
        <translation>out_proj 之前对 I 的门控 RMSNorm。</translation>
    </message>
    <message>
        <source>The head shares the token embedding&apos;s weights.</source>
        <translation>输出头与词嵌入共享权重。</translation>
    </message>
    <message>
        <source>The image encoder of a vision-language model, at its own width: patch embedding, positions, ViT layers, post-norm.</source>
        <translation>视觉语言模型的图像编码器，使用自己的宽度：图像块嵌入、位置、ViT 层、后置归一化。</translation>
    </message>
    <message>
        <source>The intermediate width of every dense FFN.</source>
        <translation>每个稠密前馈网络的中间层宽度。</translation>
    </message>
    <message>
        <source>The intermediate width of every routed expert (shared experts without their own width follow).</source>
        <translation>每个路由专家的中间层宽度（未单独设置宽度的共享专家随之变化）。</translation>
    </message>
    <message>
        <source>The key/value heads of every attention mixer (self and cross).</source>
        <translation>每个注意力混合器（自注意力和交叉注意力）的键/值头数。</translation>
    </message>
    <message>
        <source>The model width h; every FFN width keeps its ratio to it (w·h&apos;/h, rounded up).</source>
        <translation>模型宽度 h；每个前馈网络宽度保持与它的比例（w·h&apos;/h，向上取整）。</translation>
    </message>
    <message>
        <source>The model width h; heads and FFN widths stay, the head width follows as h / a.</source>
        <translation>模型宽度 h；头数和前馈网络宽度不变，头维度随之为 h / a。</translation>
    </message>
    <message>
        <source>The norms&apos; γ (and LayerNorm&apos;s β). Off: they only normalize and hold no parameters (OLMo-1); the stack&apos;s final norm and any q/k norms follow.</source>
        <translation>归一化层的 γ（以及 LayerNorm 的 β）。关闭：它们只做归一化，不含参数（OLMo-1）；堆栈的最终归一化层和 q/k 归一化层随之相同。</translation>
    </message>
    <message>
        <source>The output projection is h × h whatever a·d_h is (Helium&apos;s o_proj; such a model runs only where a·d_h = h).</source>
        <translation>无论 a·d_h 为多少，输出投影都是 h × h（Helium 的 o_proj；此类模型只在 a·d_h = h 时能运行）。</translation>
    </message>
    <message>
        <source>The position table is a fixed table of sines kept as a parameter that is not trained (Marian, Pegasus, Whisper&apos;s encoder): in the count and the weights, without gradients or optimizer states.</source>
        <translation>位置表是一张固定的正弦表，作为不训练的参数保存（Marian、Pegasus、Whisper 的编码器）：计入参数量和权重，但没有梯度和优化器状态。</translation>
    </message>
    <message>
        <source>The position-wise network: dense, mixture of experts, or none.</source>
        <translation>逐位置网络：稠密、混合专家或无。</translation>
    </message>
    <message>
        <source>The query heads of every attention and MLA mixer (self and cross).</source>
        <translation>每个注意力和 MLA 混合器（自注意力和交叉注意力）的查询头数。</translation>
    </message>
    <message>
        <source>The routed experts each token uses in every MoE layer.</source>
        <translation>每个 MoE 层中每个 token 使用的路由专家数。</translation>
    </message>
    <message>
        <source>The routed experts of every MoE layer.</source>
        <translation>每个 MoE 层的路由专家数。</translation>
    </message>
    <message>
        <source>The tower&apos;s own width (e); the projector maps it to the hidden size.</source>
        <translation>视觉塔自身的宽度（e）；投影器将其映射到隐藏层维度。</translation>
    </message>
    <message>
        <source>Their features side by side, s²·w wide (Qwen&apos;s spatial merge, pixel shuffle); off: averaged, the width kept (Gemma-3&apos;s pooling).</source>
        <translation>将它们的特征并排拼接，宽度为 s²·w（Qwen 的空间合并、pixel shuffle）；关闭：取平均，保持宽度（Gemma-3 的池化）。</translation>
    </message>
    <message>
        <source>This layer stores the shared block (its first use); off: it reuses an earlier layer&apos;s.</source>
        <translation>该层保存共享块（首次使用）；关闭：复用之前某层的。</translation>
    </message>
    <message>
        <source>Three matrices (SwiGLU/GeGLU) instead of two.</source>
        <translation>三个矩阵（SwiGLU/GeGLU）而不是两个。</translation>
    </message>
    <message>
        <source>Tied</source>
        <translation>共享权重</translation>
    </message>
    <message>
        <source>Tile embeddings</source>
        <translation>图块嵌入</translation>
    </message>
    <message>
        <source>Tiles</source>
        <translation>图块</translation>
    </message>
    <message>
        <source>Token classifier</source>
        <translation>Token 分类头</translation>
    </message>
    <message>
        <source>Token embedding width when it differs from the hidden size; adds bias-free projections in and out (OPT-350m: 512 ↔ 1024).</source>
        <translation>词嵌入宽度与隐藏层维度不同时的宽度；会增加无偏置的输入和输出投影（OPT-350m：512 ↔ 1024）。</translation>
    </message>
    <message>
        <source>Token types</source>
        <translation>Token 类型数</translation>
    </message>
    <message>
        <source>Token-type (segment) embedding rows, as BERT&apos;s 2.</source>
        <translation>token 类型（段）嵌入的行数，如 BERT 的 2。</translation>
    </message>
    <message>
        <source>Tokens (or audio frames) the encoder reads per request or training sequence, which cross-attention caches; empty means the encoder&apos;s maximum positions.</source>
        <translation>编码器每个请求或训练序列读取的 token（或音频帧）数，交叉注意力会缓存它们；留空表示编码器的最大位置数。</translation>
    </message>
    <message>
        <source>Tokens a sliding-window (or chunked) layer attends to and caches; empty means all.</source>
        <translation>滑动窗口（或分块）层所关注并缓存的 token 数；留空表示全部。</translation>
    </message>
    <message>
        <source>Tokens generated after the prompt (n): the KV cache holds context + generated tokens, and decoding reads all of them.</source>
        <translation>提示词之后生成的 token 数（n）：KV 缓存保存上下文 + 生成的 token，解码时全部读取。</translation>
    </message>
    <message>
        <source>Tokens per block (B): within a block the heads attend directly, across blocks through a d × d state. No parameters: it sets the FLOPs and what training keeps.</source>
        <translation>每块的 token 数（B）：块内各头直接相互关注，块间经由一个 d × d 的状态传递。不含参数：它决定 FLOPs 以及训练时保留的激活。</translation>
    </message>
    <message>
        <source>Tokens per chunk of the SSD scan (Q; transformers&apos; chunk_size, 256 by default): no parameters; the PyTorch path keeps a Q × Q score block per head and chunk.</source>
        <translation>SSD 扫描每块的 token 数（Q；transformers 的 chunk_size，默认 256）：无参数；PyTorch 实现路径每个头每块保留一个 Q × Q 的分数块。</translation>
    </message>
    <message>
        <source>Tokens per sequence (s) of the scenario.</source>
        <translation>场景中每个序列的 token 数（s）。</translation>
    </message>
    <message>
        <source>Tokens per sequence (s): the context served or the training sequence length. A model opens at 4,096 or its maximum positions, whichever is fewer.</source>
        <translation>每个序列的 token 数（s）：推理时的上下文或训练序列长度。模型打开时取 4,096 与其最大位置数中较小者。</translation>
    </message>
    <message>
        <source>Total GPUs; data-parallel size N_d = gpus / (tp · pp). Serving, a new count lays the model out as the GPU setups table does, keeping a TP, PP or EP set by hand that it takes.</source>
        <translation>GPU 总数；数据并行大小 N_d = gpus / (tp · pp)。推理时，新的 GPU 数量会按 GPU 配置表布局模型，并保留手动设置且可行的 TP、PP 或 EP。</translation>
    </message>
    <message>
        <source>Total parameters</source>
        <translation>总参数量</translation>
    </message>
    <message>
        <source>Train LoRA adapters of this rank on every layer, base frozen; empty means the architecture&apos;s own adapters if any, otherwise full training.</source>
        <translation>在每层上训练该秩的 LoRA 适配器，基座冻结；留空表示使用架构自带的适配器（如有），否则为全参数训练。</translation>
    </message>
    <message>
        <source>Train the vision tower</source>
        <translation>训练视觉塔</translation>
    </message>
    <message>
        <source>Train the vision tower too: its gradients, optimizer states and activations. Off: it is frozen, as LLaVA and most fine-tuning keep it; the projector and language model train.</source>
        <translation>同时训练视觉塔：其梯度、优化器状态和激活值。关闭：视觉塔冻结，与 LLaVA 及大多数微调一致；投影器和语言模型参与训练。</translation>
    </message>
    <message>
        <source>Training time</source>
        <translation>训练时长</translation>
    </message>
    <message>
        <source>Training tokens</source>
        <translation>训练 token 数</translation>
    </message>
    <message>
        <source>Training tokens (D); empty means the Chinchilla-optimal 20·N.</source>
        <translation>训练 token 数（D）；留空表示 Chinchilla 最优的 20·N。</translation>
    </message>
    <message>
        <source>Transform</source>
        <translation>变换层</translation>
    </message>
    <message>
        <source>Transform bias</source>
        <translation>变换偏置</translation>
    </message>
    <message>
        <source>Usable bytes per GPU: memory × usable share × utilization cap.</source>
        <translation>每个 GPU 的可用字节数：显存 × 可用比例 × 利用率上限。</translation>
    </message>
    <message>
        <source>Usable capacity minus the memory needed, per GPU; negative: the shortfall.</source>
        <translation>每个 GPU 的可用容量减去所需显存；为负：表示缺口。</translation>
    </message>
    <message>
        <source>Uses whose adapters this layer stores: all of its block&apos;s uses where it holds the block (Zamba2&apos;s adapter lists), else 0.</source>
        <translation>该层保存其适配器的使用次数：在保存该块的层上为块的全部使用（Zamba2 的适配器列表），否则为 0。</translation>
    </message>
    <message>
        <source>Utilization cap</source>
        <translation>利用率上限</translation>
    </message>
    <message>
        <source>Value heads</source>
        <translation>Value 头数</translation>
    </message>
    <message>
        <source>Value heads (n_v).</source>
        <translation>值头数（n_v）。</translation>
    </message>
    <message>
        <source>Value width</source>
        <translation>Value 维度</translation>
    </message>
    <message>
        <source>Values of one image patch (C·p²) that a biased linear layer maps to the hidden size, each patch then a token among the text&apos;s, with no vision tower (Fuyu&apos;s vision_embed_tokens: 3·30² = 2,700); 0: none.</source>
        <translation>一个图像块的数值个数（C·p²），由一个带偏置的线性层映射到隐藏维度，每个图像块随后作为一个 token 与文本 token 并列，没有视觉塔（Fuyu 的 vision_embed_tokens：3·30² = 2,700）；0 表示没有。</translation>
    </message>
    <message>
        <source>Virtual stages</source>
        <translation>虚拟阶段数</translation>
    </message>
    <message>
        <source>Vision layers whose outputs are concatenated at its input, features·e wide (Mllama: the last and 5 intermediate = 6).</source>
        <translation>其输出在输入处拼接的视觉层，宽度为 features·e（Mllama：最后一层加 5 个中间层 = 6）。</translation>
    </message>
    <message>
        <source>Vision tower</source>
        <translation>视觉塔</translation>
    </message>
    <message>
        <source>Vision-language (LLaVA-style)</source>
        <translation>视觉-语言（LLaVA 风格）</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>Vocabulary growth</source>
        <translation>词表扩充</translation>
    </message>
    <message>
        <source>Weight dtype</source>
        <translation>权重数据类型</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>What backward keeps: megatron = Korthikanti et al. 2022&apos;s terms (16-bit, dropout masks always, scores unless FlashAttention); hf-eager / hf-sdpa = a Hugging Face model as PyTorch keeps it (fp32 norm copies, the model&apos;s own dropout; eager attention&apos;s fp32 scores and full-head K/V, or SDPA&apos;s log-sum-exp), measured with transformers 5.24; Mamba, Mamba-2 and gated-DeltaNet layers are estimates for their CUDA kernels; hf-eager-fallback = hf-eager with Mamba and Mamba-2 layers on transformers&apos; PyTorch path (no mamba_ssm), as measured.</source>
        <translation>反向传播保留的内容：megatron = Korthikanti 等（2022）的各项（16 位，始终含 dropout 掩码，除非使用 FlashAttention 否则含注意力分数）；hf-eager / hf-sdpa = PyTorch 对 Hugging Face 模型实际保留的内容（fp32 归一化副本、模型自身的 dropout；eager 注意力的 fp32 分数和全头 K/V，或 SDPA 的 log-sum-exp），用 transformers 5.24 实测；Mamba、Mamba-2 和 gated-DeltaNet 层为针对其 CUDA 算子的估计；hf-eager-fallback = Mamba 和 Mamba-2 层走 transformers 的 PyTorch 路径（无 mamba_ssm）的 hf-eager，为实测值。</translation>
    </message>
    <message>
        <source>What differs from the base block.</source>
        <translation>与基础块不同的部分。</translation>
    </message>
    <message>
        <source>What one q/k norm covers: one head&apos;s d_h shared by every head (Qwen3); the whole projection, a·d_h and g·d_h (OLMo-2); or each head with weights of its own and no bias, [a, d_h] and [g, d_h] (Command R+, StableLM-2-12B).</source>
        <translation>一个 q/k 归一化覆盖的范围：所有头共享一个头的 d_h（Qwen3）；整个投影，a·d_h 和 g·d_h（OLMo-2）；或每个头有自己的权重且无偏置，[a, d_h] 和 [g, d_h]（Command R+、StableLM-2-12B）。</translation>
    </message>
    <message>
        <source>Where the numbers come from.</source>
        <translation>数值的来源。</translation>
    </message>
    <message>
        <source>Whether the busiest GPU&apos;s memory stays within its usable capacity (memory × usable share × the scenario&apos;s utilization cap).</source>
        <translation>最忙的 GPU 的显存是否在其可用容量之内（显存 × 可用比例 × 场景的利用率上限）。</translation>
    </message>
    <message>
        <source>Whisper&apos;s encoder input.</source>
        <translation>Whisper 编码器的输入。</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>宽度</translation>
    </message>
    <message>
        <source>Width it is built to read, where that is not the width the step before gives (empty: that width). Llama-4&apos;s adapter reads its vision intermediate_size: a file where that differs from the pixel-shuffled width builds, but cannot run.</source>
        <translation>该层设计读取的宽度，当其不等于前一步给出的宽度时（留空：即该宽度）。Llama-4 的适配器读取其视觉 intermediate_size：若文件中该值与 pixel shuffle 后的宽度不同，模型可以构建，但无法运行。</translation>
    </message>
    <message>
        <source>Width it maps to; empty means the hidden size.</source>
        <translation>映射到的宽度；留空表示隐藏层维度。</translation>
    </message>
    <message>
        <source>Width of a value head (d_v).</source>
        <translation>值头的宽度（d_v）。</translation>
    </message>
    <message>
        <source>Width of key, value and receptance (A; attention_hidden_size); empty means hidden.</source>
        <translation>key、value 和 receptance 的宽度（A；attention_hidden_size）；留空表示隐藏层大小。</translation>
    </message>
    <message>
        <source>Width of one head (d_h); empty means hidden size / heads.</source>
        <translation>单个头的宽度（d_h）；留空表示隐藏层维度 / 头数。</translation>
    </message>
    <message>
        <source>Width of one head (d_h); empty means the input width / heads.</source>
        <translation>单个头的宽度（d_h）；留空表示输入宽度 / 头数。</translation>
    </message>
    <message>
        <source>Width of one head (d_h; kv_channels).</source>
        <translation>单个头的宽度（d_h；kv_channels）。</translation>
    </message>
    <message>
        <source>Width of one indexer head and of its key (d_i).</source>
        <translation>单个索引器头及其键的宽度（d_i）。</translation>
    </message>
    <message>
        <source>Width of one key head (d_k).</source>
        <translation>单个键头的宽度（d_k）。</translation>
    </message>
    <message>
        <source>Width of one shared expert; empty means the expert width.</source>
        <translation>单个共享专家的宽度；留空表示专家宽度。</translation>
    </message>
    <message>
        <source>Width of one value head (d_v).</source>
        <translation>单个值头的宽度（d_v）。</translation>
    </message>
    <message>
        <source>Width of the depthwise conv (K).</source>
        <translation>深度卷积的宽度（K）。</translation>
    </message>
    <message>
        <source>Width of the recurrence (I; lru_width); empty means hidden.</source>
        <translation>循环层的宽度（I；lru_width）；留空表示 hidden。</translation>
    </message>
    <message>
        <source>Width of the scanned stream (I); empty means expand × hidden.</source>
        <translation>扫描流的宽度（I）；留空表示 expand × hidden。</translation>
    </message>
    <message>
        <source>Width of the shared gated MLP (f).</source>
        <translation>共享门控 MLP 的宽度（f）。</translation>
    </message>
    <message>
        <source>Width q, k and v read (w_in): the hidden state beside the embeddings; empty means 2 × hidden.</source>
        <translation>q、k 和 v 读取的宽度（w_in）：隐藏状态与嵌入并列；留空表示 2 × hidden。</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>ZeRO stage of the layout (training).</source>
        <translation>该布局的 ZeRO 阶段（训练）。</translation>
    </message>
    <message>
        <source>ZeRO stage over the data-parallel GPUs: 1 shards optimizer states, 2 also gradients, 3 (FSDP) also weights.</source>
        <translation>数据并行 GPU 上的 ZeRO 阶段：1 切分优化器状态，2 还切分梯度，3（FSDP）还切分权重。</translation>
    </message>
    <message>
        <source>Zero experts</source>
        <translation>零计算专家</translation>
    </message>
    <message>
        <source>Zero-computation (identity) experts the router also scores (LongCat-Flash): the router is h·(E + Z); they hold no parameters.</source>
        <translation>路由器也会打分的零计算（恒等）专家（LongCat-Flash）：路由器为 h·(E + Z)；它们没有参数。</translation>
    </message>
    <message>
        <source>a divisor of the query heads; tp and the KV heads divide one another</source>
        <translation>查询头数的约数；tp 与 KV 头数互相整除</translation>
    </message>
    <message>
        <source>a multiple of the KV heads (and of tp); a divisor of the hidden size when the head width follows from it</source>
        <translation>KV 头数（及 tp）的倍数；头维度由隐藏层维度推出时须为隐藏层维度的约数</translation>
    </message>
    <message>
        <source>a multiple of the heads of every attention without a set head width (and of Mamba-2&apos;s SSM heads over its expand)</source>
        <translation>每个未设置头维度的注意力的头数的倍数（以及 Mamba-2 的 SSM 头数除以其 expand 的倍数）</translation>
    </message>
    <message>
        <source>adapter</source>
        <translation>适配器</translation>
    </message>
    <message>
        <source>any size ≥ 1</source>
        <translation>任意大小 ≥ 1</translation>
    </message>
    <message>
        <source>any width ≥ 1</source>
        <translation>任意宽度 ≥ 1</translation>
    </message>
    <message>
        <source>at least the experts per token</source>
        <translation>不少于每 token 专家数</translation>
    </message>
    <message>
        <source>at most the experts</source>
        <translation>不多于专家数</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>averaged</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>bias</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>biases</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>block</source>
        <translation>块</translation>
    </message>
    <message>
        <source>block norms</source>
        <translation>块内归一化</translation>
    </message>
    <message>
        <source>block-diagonal</source>
        <translation>块对角</translation>
    </message>
    <message>
        <source>branch</source>
        <translation>分支</translation>
    </message>
    <message>
        <source>built-in</source>
        <translation>内置</translation>
    </message>
    <message>
        <source>bytes on the busiest GPU under the scenario</source>
        <translation>该场景下最忙的 GPU 上的字节数</translation>
    </message>
    <message>
        <source>channel mix</source>
        <translation>通道混合</translation>
    </message>
    <message>
        <source>class token</source>
        <translation>类别 token</translation>
    </message>
    <message>
        <source>classifier</source>
        <translation>分类器</translation>
    </message>
    <message>
        <source>context</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <source>convolution</source>
        <translation>卷积</translation>
    </message>
    <message>
        <source>copies</source>
        <translation>副本</translation>
    </message>
    <message>
        <source>correction bias</source>
        <translation>修正偏置</translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>days to train on the scenario&apos;s tokens and GPUs at its MFU, attention counted as its Attention FLOPs say</source>
        <translation>按场景的 token 数、GPU 和 MFU 训练所需的天数，注意力按“注意力 FLOPs”设置计入</translation>
    </message>
    <message>
        <source>decoder</source>
        <translation>解码器</translation>
    </message>
    <message>
        <source>dense</source>
        <translation>稠密</translation>
    </message>
    <message>
        <source>depthwise</source>
        <translation>逐通道</translation>
    </message>
    <message>
        <source>embedding copy</source>
        <translation>嵌入副本</translation>
    </message>
    <message>
        <source>embedding norm</source>
        <translation>嵌入归一化</translation>
    </message>
    <message>
        <source>embeddings</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>encoder</source>
        <translation>编码器</translation>
    </message>
    <message>
        <source>enorm and hnorm</source>
        <translation>enorm 与 hnorm</translation>
    </message>
    <message>
        <source>experts&apos; q and o</source>
        <translation>专家的 q 与 o</translation>
    </message>
    <message>
        <source>ffn</source>
        <translation>前馈网络</translation>
    </message>
    <message>
        <source>final norm</source>
        <translation>最终归一化</translation>
    </message>
    <message>
        <source>forward FLOPs per token (2·N_ne + 2·e·V + attention)</source>
        <translation>每 token 前向 FLOPs（2·N_ne + 2·e·V + 注意力）</translation>
    </message>
    <message>
        <source>frozen</source>
        <translation>冻结</translation>
    </message>
    <message>
        <source>gated norm</source>
        <translation>门控归一化</translation>
    </message>
    <message>
        <source>global layers</source>
        <translation>全局层</translation>
    </message>
    <message>
        <source>head copy</source>
        <translation>输出头副本</translation>
    </message>
    <message>
        <source>head norm</source>
        <translation>输出头归一化</translation>
    </message>
    <message>
        <source>indexer</source>
        <translation>索引器</translation>
    </message>
    <message>
        <source>inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>inner norm</source>
        <translation>内部归一化</translation>
    </message>
    <message>
        <source>input and recurrence gates</source>
        <translation>输入门与递归门</translation>
    </message>
    <message>
        <source>global q, k, v</source>
        <translation>全局 q、k、v</translation>
    </message>
    <message>
        <source>lora</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>mixer</source>
        <translation>混合器</translation>
    </message>
    <message>
        <source>moe</source>
        <translation>MoE</translation>
    </message>
    <message>
        <source>multi-token prediction</source>
        <translation>多 token 预测</translation>
    </message>
    <message>
        <source>norms</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>o reads h</source>
        <translation>o 读取 h</translation>
    </message>
    <message>
        <source>one head</source>
        <translation>单个头</translation>
    </message>
    <message>
        <source>output bias</source>
        <translation>输出偏置</translation>
    </message>
    <message>
        <source>parallel mixer</source>
        <translation>并行混合器</translation>
    </message>
    <message>
        <source>parameters one token uses (MoE)</source>
        <translation>单个 token 使用的参数量（MoE）</translation>
    </message>
    <message>
        <source>per head</source>
        <translation>每个头</translation>
    </message>
    <message>
        <source>q/k norm span</source>
        <translation>q/k 归一化范围</translation>
    </message>
    <message>
        <source>q/k norms</source>
        <translation>q/k 归一化</translation>
    </message>
    <message>
        <source>read w_in</source>
        <translation>读取 w_in</translation>
    </message>
    <message>
        <source>reads w_in</source>
        <translation>读取 w_in</translation>
    </message>
    <message>
        <source>recurrence parameter</source>
        <translation>递归参数</translation>
    </message>
    <message>
        <source>recurrent state</source>
        <translation>循环状态</translation>
    </message>
    <message>
        <source>relative position bias</source>
        <translation>相对位置偏置</translation>
    </message>
    <message>
        <source>relative position embeddings</source>
        <translation>相对位置嵌入</translation>
    </message>
    <message>
        <source>relative position norm</source>
        <translation>相对位置归一化</translation>
    </message>
    <message>
        <source>repetitions of</source>
        <translation>次重复，每次</translation>
    </message>
    <message>
        <source>routed experts</source>
        <translation>路由专家</translation>
    </message>
    <message>
        <source>router</source>
        <translation>路由器</translation>
    </message>
    <message>
        <source>s: each s×s patches become one token (s² fewer).</source>
        <translation>s：每 s×s 个图像块合成一个 token（减少 s² 倍）。</translation>
    </message>
    <message>
        <source>scalar gates</source>
        <translation>标量门</translation>
    </message>
    <message>
        <source>shared MLP</source>
        <translation>共享 MLP</translation>
    </message>
    <message>
        <source>shared expert gate</source>
        <translation>共享专家门</translation>
    </message>
    <message>
        <source>shared experts</source>
        <translation>共享专家</translation>
    </message>
    <message>
        <source>shared k, v</source>
        <translation>共享 k, v</translation>
    </message>
    <message>
        <source>shared norms</source>
        <translation>共享归一化</translation>
    </message>
    <message>
        <source>shared o</source>
        <translation>共享 o</translation>
    </message>
    <message>
        <source>shared q</source>
        <translation>共享 q</translation>
    </message>
    <message>
        <source>shared transformer</source>
        <translation>共享 Transformer 块</translation>
    </message>
    <message>
        <source>short conv</source>
        <translation>短卷积</translation>
    </message>
    <message>
        <source>single GPU</source>
        <translation>单卡</translation>
    </message>
    <message>
        <source>sinks</source>
        <translation>sink</translation>
    </message>
    <message>
        <source>sliding-window layers</source>
        <translation>滑动窗口层</translation>
    </message>
    <message>
        <source>ssm</source>
        <translation>SSM</translation>
    </message>
    <message>
        <source>sum(p.numel()) of the model</source>
        <translation>模型的 sum(p.numel())</translation>
    </message>
    <message>
        <source>this layer&apos;s linear</source>
        <translation>本层的线性层</translation>
    </message>
    <message>
        <source>tied to the token embedding</source>
        <translation>与 token 嵌入共享</translation>
    </message>
    <message>
        <source>tile and position gates</source>
        <translation>图块与位置门</translation>
    </message>
    <message>
        <source>tile positions</source>
        <translation>图块位置</translation>
    </message>
    <message>
        <source>token</source>
        <translation>token</translation>
    </message>
    <message>
        <source>token classifier</source>
        <translation>token 分类器</translation>
    </message>
    <message>
        <source>token embedding</source>
        <translation>token 嵌入</translation>
    </message>
    <message>
        <source>token types</source>
        <translation>token 类型</translation>
    </message>
    <message>
        <source>transform dense</source>
        <translation>变换稠密层</translation>
    </message>
    <message>
        <source>transform norm</source>
        <translation>变换归一化</translation>
    </message>
    <message>
        <source>two convolutions</source>
        <translation>两个卷积</translation>
    </message>
    <message>
        <source>in_proj bias</source>
        <translation>in_proj 偏置</translation>
    </message>
    <message>
        <source>1 to 1,000,000</source>
        <translation>1 到 1,000,000</translation>
    </message>
    <message>
        <source>1 to 1,000,000, a multiple of tp·pp</source>
        <translation>1 到 1,000,000，且为 tp·pp 的倍数</translation>
    </message>
    <message>
        <source>1 to 100,000,000</source>
        <translation>1 到 100,000,000</translation>
    </message>
    <message>
        <source>Pixels per side of each image (or tile) given to the model&apos;s processor; empty means the size the vision tower is made for. The tokens follow the size the family&apos;s processor resizes it to: Qwen2-VL&apos;s to multiples of 28, Gemma-3&apos;s and LLaVA-1.5&apos;s to the tower&apos;s own.</source>
        <translation>交给模型处理器的每张图像（或图块）每边的像素数；留空表示视觉塔设计的尺寸。token 数按该系列处理器缩放后的尺寸计算：Qwen2-VL 缩放到 28 的倍数，Gemma-3 和 LLaVA-1.5 缩放到视觉塔自身的尺寸。</translation>
    </message>
    <message>
        <source>Rows of the token embedding table (V); 0 only for a vision tower alone, which reads pixels, not tokens.</source>
        <translation>词嵌入表的行数（V）；仅单独的视觉塔为 0，它读取像素而非 token。</translation>
    </message>
    <message>
        <source>Share of the GPU&apos;s peak HBM bandwidth a memory-bound step reaches: it sets decode tokens/s, the batch&apos;s throughput and the $ per million tokens (for an encoder, the time its prefill takes to read the weights). Default 0.685 as measured by PyTorch&apos;s gpt-fast (Llama-2-7B in bf16 at batch 1 on an A100-80GB: 1,397 of its 2,039 GB/s); 1 is the roofline&apos;s upper bound.</source>
        <translation>访存受限的一步达到的 GPU 峰值 HBM 带宽比例：它决定解码 token/s、批次吞吐量和每百万 token 的成本（$）（对编码器而言，是其预填充读取权重所需的时间）。默认 0.685，为 PyTorch gpt-fast 的实测值（A100-80GB 上 bf16 的 Llama-2-7B，批大小 1：2,039 GB/s 中的 1,397）；1 为屋顶线模型的上限。</translation>
    </message>
    <message>
        <source>Width of one head (d); empty means hidden size / heads.</source>
        <translation>单个头的宽度（d）；留空表示隐藏层维度 / 头数。</translation>
    </message>
    <message>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>k bias</source>
        <translation>k 偏置</translation>
    </message>
    <message>
        <source>kv bias</source>
        <translation>kv 偏置</translation>
    </message>
    <message>
        <source>kv down</source>
        <translation>kv 降维</translation>
    </message>
    <message>
        <source>kv latent norm</source>
        <translation>kv 潜变量归一化</translation>
    </message>
    <message>
        <source>kv up</source>
        <translation>kv 升维</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>layer scales</source>
        <translation>层缩放</translation>
    </message>
    <message>
        <source>layers</source>
        <translation>层</translation>
    </message>
    <message>
        <source>learned vector</source>
        <translation>可学习向量</translation>
    </message>
    <message>
        <source>linear</source>
        <translation>线性</translation>
    </message>
    <message>
        <source>lm head</source>
        <translation>输出头</translation>
    </message>
    <message>
        <source>matrices</source>
        <translation>矩阵</translation>
    </message>
    <message>
        <source>merge</source>
        <translation>合并</translation>
    </message>
    <message>
        <source>module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>modules</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>no FFN</source>
        <translation>无前馈网络</translation>
    </message>
    <message>
        <source>no mixer</source>
        <translation>无混合器</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>norm</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>norms and scales</source>
        <translation>归一化与缩放</translation>
    </message>
    <message>
        <source>o bias</source>
        <translation>o 偏置</translation>
    </message>
    <message>
        <source>out_proj bias</source>
        <translation>out_proj 偏置</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>patch embedding</source>
        <translation>patch 嵌入</translation>
    </message>
    <message>
        <source>patches</source>
        <translation>patch</translation>
    </message>
    <message>
        <source>pool</source>
        <translation>池化</translation>
    </message>
    <message>
        <source>positions</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>post-norm</source>
        <translation>后归一化</translation>
    </message>
    <message>
        <source>pre- and post-tile embeddings</source>
        <translation>图块前后嵌入</translation>
    </message>
    <message>
        <source>pre-norm</source>
        <translation>前归一化</translation>
    </message>
    <message>
        <source>projections in and out</source>
        <translation>输入与输出投影</translation>
    </message>
    <message>
        <source>projector</source>
        <translation>投影器</translation>
    </message>
    <message>
        <source>q and gate</source>
        <translation>q 与门</translation>
    </message>
    <message>
        <source>q bias</source>
        <translation>q 偏置</translation>
    </message>
    <message>
        <source>q down</source>
        <translation>q 降维</translation>
    </message>
    <message>
        <source>q latent norm</source>
        <translation>q 潜变量归一化</translation>
    </message>
    <message>
        <source>q rank</source>
        <translation>q 秩</translation>
    </message>
    <message>
        <source>q up</source>
        <translation>q 升维</translation>
    </message>
    <message>
        <source>q/k norm</source>
        <translation>q/k 归一化</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>uses&apos; MLP adapters</source>
        <translation>各次调用的 MLP 适配器</translation>
    </message>
    <message>
        <source>v bias</source>
        <translation>v 偏置</translation>
    </message>
    <message>
        <source>vision tower</source>
        <translation>视觉塔</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>whole projection</source>
        <translation>整个投影</translation>
    </message>
    <message>
        <source>whole repetitions of the resized group&apos;s pattern; at least one layer per pipeline stage</source>
        <translation>被调整层组的模式须整次重复；每个流水线阶段至少一层</translation>
    </message>
    <message>
        <source>wide</source>
        <translation>宽</translation>
    </message>
    <message>
        <source>window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>Δ rank</source>
        <translation>Δ 秩</translation>
    </message>
    <message>
        <source>Δ/B/C norms</source>
        <translation>Δ/B/C 归一化</translation>
    </message>
    <message>
        <source>Norms, LoRA, adapters</source>
        <translation>层归一化、LoRA、适配器</translation>
    </message>
</context>
<context>
    <name>Setups</name>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>Per-GPU usage</source>
        <translation>每卡占用</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>Free / missing</source>
        <translation>剩余 / 缺少</translation>
    </message>
    <message>
        <source>Max context</source>
        <translation>最大上下文长度</translation>
    </message>
    <message>
        <source>Decode tok/s</source>
        <translation>解码 tok/s</translation>
    </message>
    <message>
        <source>✔ yes</source>
        <translation>✔ 是</translation>
    </message>
    <message>
        <source>✘ no</source>
        <translation>✘ 否</translation>
    </message>
    <message>
        <source>{gpu} × {count}: {layout}
per GPU {used} of {usable} usable bytes</source>
        <translation>{gpu} × {count}：{layout}
每卡占用 {used} / 可用 {usable} 字节</translation>
    </message>
    <message>
        <source>GPU setups</source>
        <translation>GPU 配置</translation>
    </message>
</context>
<context>
    <name>Shortcuts</name>
    <message>
        <source> or </source>
        <translation> 或 </translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts — ParamTally</source>
        <translation>键盘快捷键 — ParamTally</translation>
    </message>
    <message>
        <source>Search keys, actions or places (e.g. “tree”, “Ctrl+Z”)</source>
        <translation>搜索按键、操作或位置（如“树”、“Ctrl+Z”）</translation>
    </message>
    <message>
        <source>&amp;Search:</source>
        <translation>搜索(&amp;S)：</translation>
    </message>
    <message>
        <source>{every} shortcuts</source>
        <translation>{every} 个快捷键</translation>
    </message>
    <message>
        <source>{shown} of {every} shortcuts</source>
        <translation>{shown} / {every} 个快捷键</translation>
    </message>
</context>
<context>
    <name>Stale</name>
    <message>
        <source>{count} more</source>
        <translation>另外 {count} 项</translation>
    </message>
    <message>
        <source>{some} and {last}</source>
        <translation>{some} 和 {last}</translation>
    </message>
    <message>
        <source>⚠ Last valid figures, not the model as typed: {listed} is not applied</source>
        <translation>⚠ 显示的是最后一组有效数值，而非所输入的模型：{listed} 未应用</translation>
    </message>
    <message>
        <source>⚠ Last valid figures, not the model as typed: {listed} are not applied</source>
        <translation>⚠ 显示的是最后一组有效数值，而非所输入的模型：{listed} 未应用</translation>
    </message>
    <message>
        <source>⚠ Last valid figures</source>
        <translation>⚠ 最后的有效数值</translation>
    </message>
</context>
<context>
    <name>StoredCount</name>
    <message>
        <source>Part</source>
        <translation>部分</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>{name}: {total} parameters stored ({human})</source>
        <translation>{name}：存储了 {total} 个参数（{human}）</translation>
    </message>
    <message>
        <source>Stored Count — {name}</source>
        <translation>存储的参数量 — {name}</translation>
    </message>
    <message>
        <source>+ multi-token prediction {mtp} ({mtp_human}), counted apart: {total} ({total_human}) with it</source>
        <translation>+ 多 token 预测 {mtp}（{mtp_human}），另计：含此部分共 {total}（{total_human}）</translation>
    </message>
</context>
<context>
    <name>TermsTable</name>
    <message>
        <source>Term</source>
        <translation>项</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>部分</translation>
    </message>
    <message>
        <source>Per layer</source>
        <translation>每层</translation>
    </message>
    <message>
        <source>× Layers</source>
        <translation>× 层数</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source> (added)</source>
        <translation>（新增）</translation>
    </message>
    <message>
        <source>Table of terms</source>
        <translation>各项明细表</translation>
    </message>
</context>
<context>
    <name>Title</name>
    <message>
        <source>{title}: {what}</source>
        <translation>{title}：{what}</translation>
    </message>
</context>
</TS>
