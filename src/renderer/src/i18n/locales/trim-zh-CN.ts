/** Simplified Chinese strings of the trim strip in Sequences (mirrors trim-en.ts). */
export const trimZhCN = {
  trim: {
    open: '修剪',
    title: '修剪{{label}}',
    preview: '播放头所在的帧',
    inHandle: '入点',
    outHandle: '出点',
    playhead: '播放头',
    at: '{{seconds}} 秒，第 {{frame}} 帧',
    keys: '按 I 在播放头处设置入点，按 O 设置出点；← 和 → 将播放头移动一帧。',
    kept: '保留 {{seconds}} 秒，共 {{total}} 秒（{{frames}} 帧）',
    save: '保存修剪',
    clear: '使用整个镜头',
    cancel: '取消',
    badge: '已修剪 {{from}}–{{to}} 秒',
  },
};
