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
        <translation>FIRST:LAST:STEP（含最后一个）或列表 V1,V2,…；按 Enter 扫描</translation>
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
        <source>; faded: does not fit {setup}</source>
        <translation>；淡色：放不下 {setup}</translation>
    </message>
    <message>
        <source>Design space — {about}</source>
        <translation>设计空间 — {about}</translation>
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
        <source>From hidden…</source>
        <translation>由隐藏层维度计算…</translation>
    </message>
    <message>
        <source>Compute the FFN width from the hidden size, as LLaMA does (multiplier, multiple_of)</source>
        <translation>按 LLaMA 的做法由隐藏层维度计算前馈网络宽度（multiplier、multiple_of）</translation>
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
        <source>Per GPU</source>
        <translation>每卡</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>并行布局</translation>
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
        <source>MoE: &lt;b&gt;{total}&lt;/b&gt; total vs &lt;b&gt;{active}&lt;/b&gt; active per token ({total_human} vs {active_human}, {share} % active)</source>
        <translation>MoE：总计 &lt;b&gt;{total}&lt;/b&gt;，每 token 激活 &lt;b&gt;{active}&lt;/b&gt;（{total_human} 对 {active_human}，激活 {share} %）</translation>
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
        <source>Layer tree</source>
        <translation>层级树</translation>
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
        <source>Group: {group}</source>
        <translation>层组：{group}</translation>
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
    <name>Schema</name>
    <message>
        <source>16-bit embeddings</source>
        <translation>16 位嵌入</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>激活函数</translation>
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
        <source>Block</source>
        <translation>块</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>块</translation>
    </message>
    <message>
        <source>Bottleneck</source>
        <translation>瓶颈维度</translation>
    </message>
    <message>
        <source>Branches</source>
        <translation>分支</translation>
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
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
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
        <source>Dropout</source>
        <translation>Dropout</translation>
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
        <source>Frames per patch</source>
        <translation>每 patch 帧数</translation>
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
        <source>GPUs</source>
        <translation>GPU 数量</translation>
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
        <source>Gradient dtype</source>
        <translation>梯度数据类型</translation>
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
        <source>HF use_cache</source>
        <translation>HF use_cache</translation>
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
        <source>Hidden size</source>
        <translation>隐藏层维度</translation>
    </message>
    <message>
        <source>Holds the weights</source>
        <translation>持有权重</translation>
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
        <source>Images per sequence</source>
        <translation>每序列图像数</translation>
    </message>
    <message>
        <source>In and out</source>
        <translation>输入与输出</translation>
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
        <source>Inner norm</source>
        <translation>内部归一化</translation>
    </message>
    <message>
        <source>Inner width</source>
        <translation>内部宽度</translation>
    </message>
    <message>
        <source>Input width</source>
        <translation>输入宽度</translation>
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
        <source>Kernel</source>
        <translation>卷积核</translation>
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
        <source>LayerNorm β</source>
        <translation>LayerNorm β</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Learned vector</source>
        <translation>可学习向量</translation>
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
        <source>LoRA targets</source>
        <translation>LoRA 目标</translation>
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
        <source>Max positions</source>
        <translation>最大位置数</translation>
    </message>
    <message>
        <source>Megatron vocab padding</source>
        <translation>Megatron 词表填充</translation>
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
        <source>Merge</source>
        <translation>合并</translation>
    </message>
    <message>
        <source>Micro-batches</source>
        <translation>微批次数</translation>
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
        <source>Modules</source>
        <translation>模块数</translation>
    </message>
    <message>
        <source>Multi-token prediction</source>
        <translation>多 token 预测</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
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
        <source>Norm</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>Norms</source>
        <translation>层归一化</translation>
    </message>
    <message>
        <source>Norms per block</source>
        <translation>每块归一化数</translation>
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
        <source>Own embedding</source>
        <translation>独立嵌入</translation>
    </message>
    <message>
        <source>Own head</source>
        <translation>独立输出头</translation>
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
        <source>Pattern</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Pipeline parallel</source>
        <translation>流水线并行</translation>
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
        <source>Quantization</source>
        <translation>量化</translation>
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
        <source>Rank</source>
        <translation>秩</translation>
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
        <source>Rotary share</source>
        <translation>旋转编码占比</translation>
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
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Targets</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation>张量并行</translation>
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
        <source>Token types</source>
        <translation>Token 类型数</translation>
    </message>
    <message>
        <source>Total parameters</source>
        <translation>总参数量</translation>
    </message>
    <message>
        <source>Train the vision tower</source>
        <translation>训练视觉塔</translation>
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
        <source>Transform</source>
        <translation>变换层</translation>
    </message>
    <message>
        <source>Transform bias</source>
        <translation>变换偏置</translation>
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
        <source>Value width</source>
        <translation>Value 维度</translation>
    </message>
    <message>
        <source>Virtual stages</source>
        <translation>虚拟阶段数</translation>
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
        <source>Width</source>
        <translation>宽度</translation>
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
        <source>Zero experts</source>
        <translation>零计算专家</translation>
    </message>
    <message>
        <source>adapter</source>
        <translation>适配器</translation>
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
        <source>block norms</source>
        <translation>块内归一化</translation>
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
        <source>class token</source>
        <translation>类别 token</translation>
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
        <source>cross-attention</source>
        <translation>交叉注意力</translation>
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
        <source>ffn</source>
        <translation>前馈网络</translation>
    </message>
    <message>
        <source>final norm</source>
        <translation>最终归一化</translation>
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
        <source>lora</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>mixer</source>
        <translation>混合器</translation>
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
        <source>parallel mixer</source>
        <translation>并行混合器</translation>
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
        <source>recurrent state</source>
        <translation>循环状态</translation>
    </message>
    <message>
        <source>relative position bias</source>
        <translation>相对位置偏置</translation>
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
        <source>scalar gates</source>
        <translation>标量门</translation>
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
        <source>single GPU</source>
        <translation>单卡</translation>
    </message>
    <message>
        <source>sinks</source>
        <translation>sink</translation>
    </message>
    <message>
        <source>ssm</source>
        <translation>SSM</translation>
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
        <source>token embedding</source>
        <translation>token 嵌入</translation>
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
        <source>user</source>
        <translation>用户</translation>
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
</context>
<context>
    <name>Shortcuts</name>
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
        <translation>搜索按键、操作或位置（如“tree”、“Ctrl+Z”）</translation>
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
</TS>
