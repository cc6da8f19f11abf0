/**
 * Companies and organisations that asked to be listed as building with Nest:
 * the "Who is using Nest?" page (docs/discover/companies.mdx) renders a logo
 * wall of the entries with `logo: true` and a plain list of links of the
 * others, both in the order below.
 *
 * A logo is `static/img/companies/<slug>.svg` (see `companySlug`): a simple
 * monochrome wordmark, 240 x 80. To be listed, reply in the discussion thread
 * (links.companiesThread) or open a pull request adding an entry here.
 */
export interface Company {
  readonly name: string;
  /** The organisation's site, as it was given to us (a few have no https). */
  readonly url: string;
  /** Whether `static/img/companies/<slug>.svg` exists and the company is on the logo wall. */
  readonly logo: boolean;
}

/** The intrinsic size of every logo file, in CSS pixels. */
export const logoSize = {width: 240, height: 80} as const;

export const companies: readonly Company[] = [
  // The logo wall.
  {name: 'Roche', url: 'https://roche.com', logo: true},
  {name: 'Adidas', url: 'https://adidas.com', logo: true},
  {name: 'Capgemini', url: 'https://capgemini.com', logo: true},
  {name: 'Société Générale', url: 'https://www.societegenerale.fr/', logo: true},
  {name: 'REWE digital', url: 'https://rewe-digital.com/', logo: true},
  {name: 'Decathlon', url: 'https://www.decathlon.com/', logo: true},
  {name: 'Autodesk', url: 'https://www.autodesk.com/', logo: true},
  {name: 'Neo4j', url: 'https://www.neo4j.com/', logo: true},
  {name: 'Shipt', url: 'https://www.shipt.com/', logo: true},
  {name: 'Sanofi', url: 'https://github.com/Sanofi-IADC', logo: true},
  {name: 'Valor Software', url: 'https://valor-software.com/', logo: true},
  {name: 'SitePen', url: 'https://sitepen.com', logo: true},
  {name: 'Gojob', url: 'https://gojob.com/', logo: true},
  {name: 'Neoteric', url: 'https://neoteric.eu/', logo: true},
  {name: 'Trellis', url: 'https://trellis.org/', logo: true},
  {name: 'Scalio', url: 'https://scal.io', logo: true},
  {name: 'SwingDev', url: 'https://swingdev.io/', logo: true},
  {name: 'Cultura Colectiva', url: 'https://culturacolectiva.com', logo: true},
  {name: 'Trilon', url: 'https://trilon.io', logo: true},
  {name: 'ArchitectNow', url: 'http://architectnow.net', logo: true},
  {name: 'iflix', url: 'https://www.iflix.com', logo: true},
  {name: 'Genuinebee', url: 'https://genuinebee.com/', logo: true},
  {name: 'Run Players League', url: 'https://runplayersleague.com', logo: true},
  {name: 'YanRongYun', url: 'http://www.yanrongyun.com', logo: true},
  {name: 'Sclable', url: 'https://sclable.com', logo: true},
  {name: 'Dozto', url: 'https://www.dozto.com', logo: true},
  {name: 'QingTui', url: 'https://www.qingtui.cn/', logo: true},
  {name: 'Crowdlinker', url: 'https://crowdlinker.com/', logo: true},
  {name: 'Nothing', url: 'https://nothing.ch/', logo: true},
  {name: 'SwissDevJobs', url: 'https://swissdevjobs.ch/jobs/Dev-Ops/All', logo: true},
  {name: 'ZEO', url: 'https://zeo.org/tr/', logo: true},
  {name: 'ValueAdd', url: 'https://valueadd.pl/', logo: true},
  {name: 'BEDU', url: 'https://bedu.org', logo: true},
  {name: 'ShopBack', url: 'https://shopback.com', logo: true},
  {name: 'Facile.it', url: 'https://www.facile.it', logo: true},
  {name: 'interfacewerk', url: 'https://interfacewerk.de', logo: true},
  {name: 'ottonova', url: 'https://www.ottonova.de', logo: true},
  {name: 'Radity', url: 'https://radity.com', logo: true},
  {name: 'Global CTO Forum', url: 'https://globalctoforum.org/', logo: true},
  {name: 'Rivvy', url: 'https://rivvy.app', logo: true},
  {name: 'Vue Storefront', url: 'https://www.vuestorefront.io/', logo: true},
  // The plain list.
  {name: 'Gorrion', url: 'https://gorrion.io/', logo: false},
  {name: 'Baltic Data Science', url: 'http://balticdatascience.com/', logo: false},
  {name: 'ProHabits', url: 'https://prohabits.com/', logo: false},
  {name: 'Komed Health', url: 'https://komed-health.com/', logo: false},
  {name: 'Kerberus', url: 'https://kerberus.com.co/', logo: false},
  {name: 'Xtremis', url: 'http://xtremis.com/', logo: false},
  {name: 'Notadd', url: 'https://notadd.com/', logo: false},
  {name: 'JSDaddy', url: 'http://jsdaddy.io/', logo: false},
  {name: 'Yumpingo', url: 'https://yumpingo.com/', logo: false},
  {name: 'Analytics Importer', url: 'https://analytics-importer.cz/', logo: false},
  {name: 'Dayzim', url: 'https://dayzim.com/', logo: false},
  {name: 'WizKids', url: 'https://wizkids.co.uk/', logo: false},
  {name: 'Pilvia', url: 'https://pilvia.com/', logo: false},
  {name: 'wi-Q', url: 'https://wi-q.com/', logo: false},
  {name: 'Agrofel', url: 'http://agrofel.com.br', logo: false},
  {name: 'Société Générale Group', url: 'https://societegenerale.com/', logo: false},
  {name: 'Hulan Trashpanda', url: 'https://trashpanda.hulan.nl/', logo: false},
  {name: 'ByteDance', url: 'https://bytedance.com/', logo: false},
  {name: 'VoterCircle', url: 'https://votercircle.com', logo: false},
  {name: 'erento', url: 'https://erento.com', logo: false},
  {name: 'Manticore Labs', url: 'https://ideas.manticore-labs.com/', logo: false},
  {name: 'Smartex Lab', url: 'https://smartexlab.com/', logo: false},
  {name: 'Automama', url: 'https://automama.ru/', logo: false},
  {name: 'Frontend Watch', url: 'https://frontendwatch.com/', logo: false},
  {name: 'Mobile Jazz', url: 'https://mobilejazz.com/', logo: false},
  {name: 'CGIandI', url: 'https://cgiandi.com/', logo: false},
  {name: 'TitleX', url: 'https://www.titlex.com.au/', logo: false},
  {name: 'Codengage', url: 'https://codengage.com/', logo: false},
  {name: 'BudaCode', url: 'https://budacode.com/', logo: false},
  {name: 'Blue Anchor', url: 'https://blueanchor.io/', logo: false},
  {name: 'EasyMetrics', url: 'https://www.easymetrics.com/', logo: false},
  {name: 'Apollo', url: 'https://getapollo.io/', logo: false},
  {name: 'Big Bench', url: 'https://big-bench.com/', logo: false},
  {name: 'Rosebay Consult', url: 'https://www.rosebayconsult.com/', logo: false},
  {name: 'Patrocinium', url: 'https://www.patrocinium.com/', logo: false},
  {name: 'Creators Daily', url: 'https://creatorsdaily.com', logo: false},
  {name: 'Autoscar', url: 'https://autoscar.com.br', logo: false},
  {name: 'Mediktiv', url: 'https://www.mediktiv.com', logo: false},
  {name: 'Harmonize Health', url: 'https://harmonize.health', logo: false},
  {name: 'Accerlery', url: 'https://accerlery.be', logo: false},
  {name: 'HaloJasa', url: 'https://halojasa.com', logo: false},
  {name: 'Hexito', url: 'https://hexito.com', logo: false},
  {name: 'Padfever', url: 'https://padfever.com/', logo: false},
  {name: 'Datenlotse', url: 'https://datenlotse.org', logo: false},
  {name: 'Bemum', url: 'https://bemum.co', logo: false},
  {name: 'Optimeye', url: 'https://weoptimeye.ai', logo: false},
  {name: 'NemoVote', url: 'https://nemovote.com', logo: false},
  {name: 'Selleo', url: 'https://selleo.com', logo: false},
  {name: 'Pchas', url: 'https://pchas.ir', logo: false},
  {name: 'Tayeh', url: 'https://tayeh.ir', logo: false},
  {name: 'Forwardigital', url: 'https://forwardigital.co.uk', logo: false},
  {name: 'Rozetka', url: 'https://rozetka.com.ua', logo: false},
  {name: 'iTrio', url: 'https://www.itrio.net', logo: false},
];

/** The file-name slug of a company: `Société Générale` -> `societe-generale`. */
export function companySlug(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The site path of a company's logo. */
export function logoPath(company: Company): string {
  return `/img/companies/${companySlug(company.name)}.svg`;
}

/** The logo wall: companies with a logo, in the order above. */
export const companiesWithLogos: readonly Company[] = companies.filter((company) => company.logo);

/** The plain list: companies without a logo, in the order above. */
export const companiesWithoutLogos: readonly Company[] = companies.filter(
  (company) => !company.logo,
);
