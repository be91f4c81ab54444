/** Simplified Chinese strings of Create's reference trim control (mirrors reference-trim-en.ts). */
export const referenceTrimZhCN = {
  referenceTrim: {
    open: '剪辑…',
    title: '保留{{label}}的一段',
    hint: '只发送保留的片段；文件本身不会被修改。',
    start: '开始（秒）',
    end: '结束（秒）',
    kept: '保留：{{start}} 秒 – {{end}} 秒（{{total}} 秒中的 {{length}} 秒）',
    passes: '保留的片段符合规则。',
    suggest: '保留前 {{seconds}} 秒',
    playRange: '播放保留的片段',
    whole: '发送整个文件',
  },
};
