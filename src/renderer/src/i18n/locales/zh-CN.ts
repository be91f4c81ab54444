import type { Messages } from './en';

/** 简体中文 */
export const zhCN: Messages = {
  app: { name: 'Framewright', skipToContent: '跳到内容', mainNavigation: '分区' },
  nav: {
    create: '创作',
    queue: '队列',
    library: '作品库',
    playground: '试验场',
    settings: '设置',
  },
  create: {
    title: '创作',
    emptyTitle: '根据实时服务契约开始一个视频',
    emptyBody:
      '选择视频服务，描述镜头，并添加参考图片、视频片段或音频。表单由服务的实时契约生成；在发送或计费之前，每个参考素材都会按其规则检查。',
  },
  queue: {
    title: '队列',
    emptyTitle: '还没有任务',
    emptyBody:
      '你发起的每个生成任务都会实时出现在这里：状态、阶段、排队与运行时长、上传与下载。任务在重启和崩溃后依然保留，且绝不会重复创建。',
  },
  library: {
    title: '作品库',
    emptyTitle: '经过校验的成果将保存在这里',
    emptyBody:
      '视频、图片和音频只有在校验和验证通过后才会进入作品库，并附带提示词、种子和参数。作品库可离线使用。',
  },
  playground: {
    title: '试验场',
    emptyTitle: '你的密钥可调用的其他所有服务',
    emptyBody:
      '文本与视觉对话、向量嵌入、重排序、OCR、语音转写、语音与音乐、图片以及文档解析——均由服务的实时契约驱动。',
  },
  settings: {
    title: '设置',
    appearance: '外观',
    theme: '主题',
    themeSystem: '跟随系统',
    themeLight: '浅色',
    themeDark: '深色',
    language: '语言',
    languageSystem: '跟随系统',
    profiles: '配置档',
    profilesHint: '内置本地模拟器：稳定的模拟结果，不消耗额度。个人密钥和调试配置档即将推出。',
    checkConnection: '测试连接',
    about: '关于',
    version: '版本',
    host: '运行方式',
    hostElectron: '桌面应用',
    hostBrowser: '浏览器（本机回环主机）',
    dataDir: '数据文件夹',
  },
  profileKind: { simulator: '模拟器', personal: '个人密钥', debug: '调试令牌' },
  status: {
    profile: '配置档',
    connection: '连接',
    starting: '正在连接…',
    connected: '已连接',
    offline: '离线',
    error: '连接出错',
  },
  errors: { generic: '出错了：{{message}}' },
};
