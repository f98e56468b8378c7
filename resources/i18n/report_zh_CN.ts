<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>Report</name>
    <message>
        <source>{name}: design report</source>
        <translation>{name}：设计报告</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>The architecture's fields by id, as a preset JSON holds them; those that are off or 0, and those that do not apply to this model, are left out.</source>
        <translation>架构的字段（按字段 id，与预设 JSON 一致）；关闭或为 0 的字段，以及不适用于此模型的字段，不列出。</translation>
    </message>
    <message>
        <source>field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Parameter count: the derivation</source>
        <translation>参数量：推导过程</translation>
    </message>
    <message>
        <source>Embedding → attention → FFN → norms → LM head: each term is one unit's formula with its numbers filled in, a term repeated over layers written as layers × (one layer). The rows in bold are the ones added up; the rows under them show what each is made of.</source>
        <translation>嵌入 → 注意力 → 前馈网络 → 层归一化 → 输出头：每一项是单个单元的公式并代入数值，跨层重复的项写作 层数 × (单层)。加粗的行相加得到总数，其下的行列出各项的组成。</translation>
    </message>
    <message>
        <source>Derivation</source>
        <translation>推导</translation>
    </message>
    <message>
        <source>total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>term</source>
        <translation>项</translation>
    </message>
    <message>
        <source>formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Multi-token prediction modules, which transformers does not build, are counted apart:</source>
        <translation>多 token 预测（MTP）模块不由 transformers 构建，单独计数：</translation>
    </message>
    <message>
        <source>MTP modules</source>
        <translation>MTP 模块</translation>
    </message>
    <message>
        <source>MTP modules (counted apart)</source>
        <translation>MTP 模块（单独计数）</translation>
    </message>
    <message>
        <source>layers {which} ({kind})</source>
        <translation>第 {which} 层（{kind}）</translation>
    </message>
    <message>
        <source>layer {index} ({kind})</source>
        <translation>第 {index} 层（{kind}）</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>{name} ({qualifier})</source>
        <translation>{name}（{qualifier}）</translation>
    </message>
    <message>
        <source>item</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>approx.</source>
        <translation>约</translation>
    </message>
    <message>
        <source>active per token</source>
        <translation>每 token 激活参数量</translation>
    </message>
    <message>
        <source>base model</source>
        <translation>基础模型</translation>
    </message>
    <message>
        <source>vision tower</source>
        <translation>视觉塔</translation>
    </message>
    <message>
        <source>projector</source>
        <translation>投影层</translation>
    </message>
    <message>
        <source>language model alone</source>
        <translation>仅语言模型</translation>
    </message>
    <message>
        <source>part</source>
        <translation>部分</translation>
    </message>
    <message>
        <source>share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Parameters by part</source>
        <translation>各部分参数量</translation>
    </message>
    <message>
        <source>Total and active parameters</source>
        <translation>总参数量与激活参数量</translation>
    </message>
    <message>
        <source>Vision tower</source>
        <translation>视觉塔</translation>
    </message>
    <message>
        <source>Projector</source>
        <translation>投影层</translation>
    </message>
    <message>
        <source>Embeddings</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>Audio front-end</source>
        <translation>音频前端</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>SSM / linear attn</source>
        <translation>SSM / 线性注意力</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>FFN</source>
        <translation>前馈网络</translation>
    </message>
    <message>
        <source>MoE experts</source>
        <translation>MoE 专家</translation>
    </message>
    <message>
        <source>Shared experts</source>
        <translation>共享专家</translation>
    </message>
    <message>
        <source>Router</source>
        <translation>路由器</translation>
    </message>
    <message>
        <source>Norms</source>
        <translation>层归一化</translation>
    </message>
    <message>
        <source>LM head</source>
        <translation>输出头</translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>Adapters</source>
        <translation>适配器</translation>
    </message>
    <message>
        <source>Vocabulary growth</source>
        <translation>词表扩展</translation>
    </message>
    <message>
        <source>format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>bits per weight</source>
        <translation>每权重位数</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Weights per data type and format</source>
        <translation>各数据类型与量化格式下的权重</translation>
    </message>
    <message>
        <source>The whole model's weights on one GPU, bytes = parameters · bits / 8 (a quantization format's bits include its scales).</source>
        <translation>整个模型的权重放在一张 GPU 上：字节数 = 参数量 · 位数 / 8（量化格式的位数已包含其缩放因子）。</translation>
    </message>
    <message>
        <source>The scenario's memory per GPU</source>
        <translation>该场景下每张 GPU 的显存</translation>
    </message>
    <message>
        <source>Scenario: {scenario}.</source>
        <translation>场景：{scenario}。</translation>
    </message>
    <message>
        <source> The busiest pipeline stage is shown: stage {stage}, {layers} layers.</source>
        <translation>此处为最忙的流水线阶段：第 {stage} 阶段，{layers} 层。</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>每张 GPU 的显存</translation>
    </message>
    <message>
        <source>total per GPU</source>
        <translation>每张 GPU 总计</translation>
    </message>
    <message>
        <source>Memory per GPU by part</source>
        <translation>每张 GPU 的显存（按部分）</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
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
        <source>Recurrent state</source>
        <translation>循环状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Runtime overhead</source>
        <translation>运行时开销</translation>
    </message>
    <message>
        <source>Not modelled: {what}.</source>
        <translation>未建模：{what}。</translation>
    </message>
    <message>
        <source>GPU setups that fit</source>
        <translation>放得下的 GPU 配置</translation>
    </message>
    <message>
        <source>None of the catalogue's GPU setups (up to {count} GPUs) fits this scenario.</source>
        <translation>目录中的 GPU 配置（最多 {count} 张）都放不下该场景。</translation>
    </message>
    <message>
        <source>The fewest GPUs of each kind in the catalogue (counts up to {count}) on which the scenario fits, in the layout the tool chooses; the busiest GPU's memory against its usable capacity.</source>
        <translation>目录中每种 GPU 放得下该场景的最少张数（最多 {count} 张），并行布局由工具选择；比较的是最忙 GPU 的显存与其可用容量。</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>count</source>
        <translation>张数</translation>
    </message>
    <message>
        <source>layout</source>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>per GPU GiB</source>
        <translation>每张 GPU GiB</translation>
    </message>
    <message>
        <source>free GB</source>
        <translation>剩余 GB</translation>
    </message>
    <message>
        <source>max context</source>
        <translation>最大上下文</translation>
    </message>
    <message>
        <source>decode tokens/s</source>
        <translation>解码 token/s</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <source>FLOPs and training time</source>
        <translation>FLOPs 与训练时间</translation>
    </message>
    <message>
        <source>Training FLOPs and time count {convention} (--attention-flops {choice}); the time is at {mfu} model FLOPs utilization (MFU, --mfu).</source>
        <translation>训练 FLOPs 与训练时间按{convention}计算（--attention-flops {choice}）；时间按 {mfu} 的模型 FLOPs 利用率（MFU，--mfu）计算。</translation>
    </message>
    <message>
        <source>Training on {tokens} tokens takes {flops} FLOPs: {days} days on {gpus} × {gpu} at {mfu} MFU ({peak} TFLOP/s peak each).</source>
        <translation>在 {tokens} 个 token 上训练需要 {flops} FLOPs：在 {gpus} × {gpu} 上以 {mfu} MFU 计需 {days} 天（每张峰值 {peak} TFLOP/s）。</translation>
    </message>
    <message>
        <source>What was assumed</source>
        <translation>假设条件</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认值</translation>
    </message>
    <message>
        <source>Scenario fields</source>
        <translation>场景字段</translation>
    </message>
    <message>
        <source>Fields this model has no use for are left out: {fields}.</source>
        <translation>此模型用不到的字段未列出：{fields}。</translation>
    </message>
    <message>
        <source>Parameter counts equal sum(p.numel() for p in model.parameters()) of the model transformers builds; memory, FLOPs and times are estimates under the scenario above. Written by ParamTally {version}.</source>
        <translation>参数量等于 transformers 所构建模型的 sum(p.numel() for p in model.parameters())；显存、FLOPs 与时间是上述场景下的估算。由 ParamTally {version} 生成。</translation>
    </message>
    <message>
        <source>embeddings</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>token embedding</source>
        <translation>词元嵌入</translation>
    </message>
    <message>
        <source>positions</source>
        <translation>位置嵌入</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>biases</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>bias</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>ffn</source>
        <translation>前馈网络</translation>
    </message>
    <message>
        <source>matrices</source>
        <translation>矩阵</translation>
    </message>
    <message>
        <source>lm head</source>
        <translation>输出头</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>block norms</source>
        <translation>块内层归一化</translation>
    </message>
    <message>
        <source>final norm</source>
        <translation>最终层归一化</translation>
    </message>
    <message>
        <source>norm</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>pre-norm</source>
        <translation>前置归一化</translation>
    </message>
    <message>
        <source>post-norm</source>
        <translation>后置归一化</translation>
    </message>
    <message>
        <source>q/k norms</source>
        <translation>q/k 归一化</translation>
    </message>
    <message>
        <source>embedding norm</source>
        <translation>嵌入层归一化</translation>
    </message>
    <message>
        <source>head norm</source>
        <translation>输出头归一化</translation>
    </message>
    <message>
        <source>dense</source>
        <translation>稠密</translation>
    </message>
    <message>
        <source>MoE</source>
        <translation>MoE</translation>
    </message>
    <message>
        <source>moe</source>
        <translation>MoE</translation>
    </message>
    <message>
        <source>routed experts</source>
        <translation>路由专家</translation>
    </message>
    <message>
        <source>shared experts</source>
        <translation>共享专家</translation>
    </message>
    <message>
        <source>shared expert gate</source>
        <translation>共享专家门控</translation>
    </message>
    <message>
        <source>router</source>
        <translation>路由器</translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>cross-attention KV cache</source>
        <translation>交叉注意力 KV 缓存</translation>
    </message>
    <message>
        <source>recurrent state</source>
        <translation>循环状态</translation>
    </message>
    <message>
        <source>multi-token prediction</source>
        <translation>多 token 预测</translation>
    </message>
    <message>
        <source>relative position bias</source>
        <translation>相对位置偏置</translation>
    </message>
    <message>
        <source>patch embedding</source>
        <translation>图块嵌入</translation>
    </message>
    <message>
        <source>class token</source>
        <translation>类别 token</translation>
    </message>
    <message>
        <source>decoder</source>
        <translation>解码器</translation>
    </message>
    <message>
        <source>encoder</source>
        <translation>编码器</translation>
    </message>
    <message>
        <source>no mixer, dense</source>
        <translation>无混合层，稠密</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>logits</source>
        <translation>logits</translation>
    </message>
    <message>
        <source>CUDA context and workspaces</source>
        <translation>CUDA 上下文与工作区</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>frozen base weights</source>
        <translation>冻结的基础权重</translation>
    </message>
    <message>
        <source>adapter weights</source>
        <translation>适配器权重</translation>
    </message>
    <message>
        <source>attention per token</source>
        <translation>每 token 注意力</translation>
    </message>
    <message>
        <source>attention of one decode step at context s</source>
        <translation>上下文 s 处单步解码的注意力</translation>
    </message>
    <message>
        <source>forward per token</source>
        <translation>每 token 前向</translation>
    </message>
    <message>
        <source>decode step per token at context s</source>
        <translation>上下文 s 处每 token 解码步</translation>
    </message>
    <message>
        <source>training per token</source>
        <translation>每 token 训练</translation>
    </message>
    <message>
        <source>hardware FLOPs per training token</source>
        <translation>每训练 token 的硬件 FLOPs</translation>
    </message>
    <message>
        <source>Chinchilla-optimal tokens</source>
        <translation>Chinchilla 最优 token 数</translation>
    </message>
    <message>
        <source>run</source>
        <translation>整个训练</translation>
    </message>
    <message>
        <source>run with attention</source>
        <translation>整个训练（含注意力）</translation>
    </message>
    <message>
        <source>prefill per request</source>
        <translation>每请求预填充</translation>
    </message>
    <message>
        <source>full attention: each query over all s keys, as PaLM (Chowdhery et al. 2022, appendix B) and Megatron-LM (Narayanan et al. 2021) count the MFUs they publish</source>
        <translation>完整注意力（每个查询覆盖全部 s 个键，与 PaLM（Chowdhery 等，2022，附录 B）和 Megatron-LM（Narayanan 等，2021）公布 MFU 时的计法一致）</translation>
    </message>
    <message>
        <source>causal attention: the unmasked half a causal mask leaves (Kaplan et al. 2020's average)</source>
        <translation>因果注意力（因果掩码留下的未遮蔽一半，即 Kaplan 等 2020 的平均值）</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>frozen parameters weights</source>
        <translation>冻结参数的权重</translation>
    </message>
    <message>
        <source>frozen vision tower weights</source>
        <translation>冻结的视觉塔权重</translation>
    </message>
    <message>
        <source>output layer</source>
        <translation>输出层</translation>
    </message>
    <message>
        <source>replicated K/V gradients</source>
        <translation>复制的 K/V 梯度</translation>
    </message>
    <message>
        <source>replicated K/V optimizer states</source>
        <translation>复制的 K/V 优化器状态</translation>
    </message>
    <message>
        <source>replicated K/V weights</source>
        <translation>复制的 K/V 权重</translation>
    </message>
    <message>
        <source>replicated Mamba-2 B/C gradients</source>
        <translation>复制的 Mamba-2 B/C 梯度</translation>
    </message>
    <message>
        <source>replicated Mamba-2 B/C optimizer states</source>
        <translation>复制的 Mamba-2 B/C 优化器状态</translation>
    </message>
    <message>
        <source>replicated Mamba-2 B/C weights</source>
        <translation>复制的 Mamba-2 B/C 权重</translation>
    </message>
    <message>
        <source>vocabulary padding gradients</source>
        <translation>词表填充梯度</translation>
    </message>
    <message>
        <source>vocabulary padding optimizer states</source>
        <translation>词表填充优化器状态</translation>
    </message>
    <message>
        <source>vocabulary padding weights</source>
        <translation>词表填充权重</translation>
    </message>
    <message>
        <source>prefill working set</source>
        <translation>预填充工作集</translation>
    </message>
    <message>
        <source>last token</source>
        <translation>最后一个 token</translation>
    </message>
    <message>
        <source>every token</source>
        <translation>每个 token</translation>
    </message>
    <message>
        <source>MoE layers</source>
        <translation>MoE 层</translation>
    </message>
    <message>
        <source>dense layers</source>
        <translation>稠密层</translation>
    </message>
    <message>
        <source>no FFN layers</source>
        <translation>无 FFN 层</translation>
    </message>
    <message>
        <source>estimate</source>
        <translation>估计值</translation>
    </message>
    <message>
        <source>token ids</source>
        <translation>token id</translation>
    </message>
    <message>
        <source>final norms</source>
        <translation>最终归一化</translation>
    </message>
    <message>
        <source>LM head input</source>
        <translation>输出头输入</translation>
    </message>
    <message>
        <source>logits and labels for the loss</source>
        <translation>损失所用的 logits 与标签</translation>
    </message>
    <message>
        <source>position tables</source>
        <translation>位置表</translation>
    </message>
    <message>
        <source>embedding dropout</source>
        <translation>嵌入 dropout</translation>
    </message>
    <message>
        <source>attention bias masks</source>
        <translation>注意力偏置掩码</translation>
    </message>
    <message>
        <source>decoder cross-attention</source>
        <translation>解码器交叉注意力</translation>
    </message>
    <message>
        <source>decoder dense layers</source>
        <translation>解码器稠密层</translation>
    </message>
    <message>
        <source>encoder dense</source>
        <translation>编码器稠密</translation>
    </message>
    <message>
        <source>encoder dense layers</source>
        <translation>编码器稠密层</translation>
    </message>
    <message>
        <source>vision tower working set</source>
        <translation>视觉塔工作集</translation>
    </message>
    <message>
        <source>sliding-window layers</source>
        <translation>滑动窗口层</translation>
    </message>
    <message>
        <source>global layers</source>
        <translation>全局层</translation>
    </message>
    <message>
        <source>AdamW m + v fp32 + fp32 master</source>
        <translation>AdamW m + v fp32 + fp32 主权重</translation>
    </message>
    <message>
        <source>routed expert gradients</source>
        <translation>路由专家梯度</translation>
    </message>
    <message>
        <source>routed expert optimizer states</source>
        <translation>路由专家优化器状态</translation>
    </message>
    <message>
        <source>routed expert weights</source>
        <translation>路由专家权重</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>causal attention</source>
        <translation>因果注意力</translation>
    </message>
    <message>
        <source>full attention</source>
        <translation>完整注意力</translation>
    </message>
    <message>
        <source>full: each query over all s keys</source>
        <translation>完整：每个查询对全部 s 个键</translation>
    </message>
    <message>
        <source>recompute full</source>
        <translation>完全重计算</translation>
    </message>
</context>
</TS>
