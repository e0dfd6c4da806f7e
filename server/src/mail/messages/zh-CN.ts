import type { EmailCatalogue } from './en.js';

export const zhCN: EmailCatalogue = {
  'frame.sentTo': '发送至 {email}',
  'otp.subject': '{code} 是您的 {brand} 登录验证码',
  'otp.title': '{brand} 登录验证码',
  'otp.lead': '您的 {brand} 登录验证码是：',
  'otp.leadShort': '您的登录验证码是：',
  'otp.enterWithin': '请在 {minutes, plural, other {# 分钟}}内在登录页面输入。验证码只能使用一次。',
  'otp.ignore': '如果您没有请求登录 {brand}，请忽略此邮件：没有验证码，任何人都无法登录。',
};
