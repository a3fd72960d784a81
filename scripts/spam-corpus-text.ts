// The words of scripts/build-spam-corpus.ts: honest messages in several languages, the
// spam texts that form-spam reports describe, and real company-name shapes.

/** Honest enquiries; {company}, {product}, {n} and {link} are filled in. */
export const HONEST_MESSAGES = [
  "Hi, we are a team of {n} looking for a CRM to replace our spreadsheets. Could you send pricing for {product}?",
  "Hello, I'd like a demo of {product} for {company} next week if possible. Tuesday or Thursday afternoon works for us.",
  "We saw your talk at the conference and would like to discuss a pilot with {n} users. What does onboarding look like?",
  "Can you integrate with our existing ERP? We currently export orders as CSV every night. More about us: {link}",
  "Please call me back about the enterprise plan, we need SSO and an EU data residency option.",
  "Our contract with the current vendor ends in March. I'm comparing three options and yours is one of them.",
  "Is there a discount for non-profits? We are a small charity with {n} volunteers.",
  "I filled this in on behalf of {company}; our procurement team will need a quote and your security questionnaire.",
  "Guten Tag, wir interessieren uns für {product} für unser Team von {n} Personen. Könnten Sie uns ein Angebot schicken?",
  "Bonjour, nous souhaiterions une démonstration de {product} pour {company}. Merci de me recontacter.",
  "Hola, quisiera recibir información sobre precios para {n} usuarios. Nuestra web: {link}",
  "Olá, gostaríamos de saber se o {product} funciona com a nossa loja online. Obrigado!",
  "Dzień dobry, prosimy o ofertę dla {n} użytkowników oraz informację o wdrożeniu.",
  "Здравствуйте! Хотим подключить {product} для отдела продаж из {n} человек. Пришлите, пожалуйста, условия.",
  "お世話になっております。{product}の導入を検討しております。資料をお送りいただけますでしょうか。",
  "您好，我们公司有{n}名销售人员，想了解一下{product}的价格和试用方式。",
  "مرحبا، نود الحصول على عرض سعر لـ {product} لفريق من {n} أشخاص.",
  "안녕하세요, {product} 도입을 검토 중입니다. 견적서를 받을 수 있을까요?",
  "Hallo, wij willen graag een offerte voor {n} gebruikers. Ons bedrijf: {link}",
  "Sawubona, we run a logistics company in Durban and want to track leads from our website. Can we talk?",
  "Please note we only need the basic plan for now; we may grow to {n} seats next year.",
  "Thanks for the quick reply yesterday. As discussed, here is the brief for the {product} rollout: {link}",
];

export const PRODUCTS = ["the Pro plan", "your CRM", "the API", "the starter package", "your lead inbox", "the enterprise edition"];

export const BUDGETS = ["< 5,000 EUR", "5k-20k USD", "£10,000", "to be decided", "50.000 €", "100万円"];
export const HEARD_FROM = ["LinkedIn", "A colleague", "Google", "Conference", "Newsletter", "Podcast", "Reddit"];
export const INTERESTS = ["CRM", "API", "Support", "Reporting", "Integrations", "Training"];

/** Real company-name shapes that a naive check would trip on: domains, digits, acronyms, inner capitals, other scripts. */
export const COMPANY_SHAPES = [
  "Booking.com",
  "Hotels.com",
  "Salesforce.com, Inc.",
  "3M",
  "7-Eleven",
  "O2",
  "E.ON",
  "iHeartMedia",
  "KPMG",
  "PwC",
  "BBVA",
  "AT&T",
  "H&M",
  "eBay",
  "JPMorgan Chase",
  "DeLonghi",
  "McKinsey & Company",
  "HubSpot",
  "YouTube",
  "LinkedIn",
  "WhatsApp",
  "PayPal",
  "GitHub",
  "Dr. Oetker",
  "Müller & Söhne GmbH",
  "Société Générale",
  "Nestlé S.A.",
  "Škoda Auto",
  "Ørsted",
  "Xiaomi",
  "Qualcomm",
  "Zalando SE",
  "Tata Consultancy Services",
  "Brzęczyszczykiewicz Sp. z o.o.",
  "Ngubane Holdings (Pty) Ltd",
  "Dlamini & Mthembu Attorneys",
  "Nguyễn Trading Co.",
  "Gwynfor Llwyd Cyf.",
  "Þórsson ehf.",
  "株式会社山田製作所",
  "北京小米科技有限责任公司",
  "ООО «Ромашка»",
  "Αθηναϊκή Ζυθοποιία Α.Ε.",
  "شركة الاتصالات السعودية",
  "삼성전자",
  "บริษัท ปูนซิเมนต์ไทย จำกัด",
];

export const FREE_MAIL = [
  "gmail.com",
  "yahoo.com",
  "outlook.com",
  "hotmail.com",
  "icloud.com",
  "proton.me",
  "gmx.de",
  "web.de",
  "orange.fr",
  "libero.it",
  "wp.pl",
  "seznam.cz",
  "mail.ru",
  "yandex.ru",
  "qq.com",
  "163.com",
  "naver.com",
  "yahoo.co.jp",
];

export const COMPANY_TLDS = ["com", "de", "fr", "co.uk", "pl", "nl", "io", "com.br", "co.za", "jp"];

/** SEO and backlink offers: {link} is a spammer's URL. */
export const SEO_OFFERS = [
  "Hello, I checked your website and found it is not ranking on Google for your main keywords. We offer high quality backlinks from DA 50+ sites: {link} Our packages: {link} To stop receiving these emails: {link}",
  "Dear website owner, boost your SEO with 500 dofollow backlinks for only $49! Order here {link} See examples {link} and reviews {link}",
  "Hi there! Want more traffic? Our guest-post network has 2,000 sites. Price list: {link} Case studies: {link} Unsubscribe: {link}",
  "Greetings, we build authority links and fix your Google Maps ranking. Free audit at {link} — portfolio {link} — reply STOP or click {link}",
];

export const CRYPTO_OFFERS = [
  "Earn 3.5 BTC per week with our AI trading bot! Register now {link} Withdraw anytime {link} Telegram support {link}",
  "Your account has received 0.75 BTC. Confirm the transfer within 24 hours: {link} Help: {link} Details: {link}",
  "Crypto passive income: invest $250 and get $12,000 in 30 days. Join {link} Reviews {link} Live payouts {link}",
];

/** "I saw your website": the mass-mailed pitch, with a demo, an offer and an unsubscribe link. */
export const SAW_YOUR_WEBSITE = [
  "Hi, I saw your website and noticed you're not getting the leads you should. I recorded a short video for you: {link} Pricing: {link} Not interested? {link}",
  "Hello, I came across your website and wanted to offer a redesign at 50% off. Portfolio: {link} Book a call: {link} Opt out: {link}",
  "I was on your website today and thought you might like a done-for-you AI chatbot. Watch the demo at {link} and grab the deal at {link}",
  "Hey, I found your website on Google and I think you could double your sales. Free strategy session: {link} Examples: {link} To unsubscribe: {link}",
];

/** Spam that carries at most one link and a real-looking sender: the default checks miss it; a team's blocked words catch it. */
export const ONE_LINK_PITCHES = [
  "Hi, I saw your website and I can get you on the first page of Google with our SEO service. Reply to this message or visit {link}",
  "Dear owner, we provide backlinks and guest posts on high authority websites. Interested? {link}",
];

export const SPAM_LINK_HOSTS = [
  "seo-rank-pro.xyz",
  "best-backlinks.top",
  "cheap-traffic.online",
  "crypto-profit-now.site",
  "btc-doubler.click",
  "bit.ly",
  "tinyurl.com",
  "getmore-leads.biz",
  "web-redesign-deals.shop",
  "ai-chatbot-offer.live",
];
