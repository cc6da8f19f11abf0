/**
 * Companies and organisations publicly known to build with Nest: the
 * "Who is using Nest?" page (docs/discover/companies.mdx) renders a logo wall
 * of the entries with `logo: true` and a plain list of all of them.
 *
 * A logo is `static/img/companies/<slug>.svg` (see `companySlug`): a simple
 * monochrome wordmark, 240 x 80. To be listed, reply in the discussion thread
 * (links.companiesThread) or open a pull request adding an entry here.
 */
export interface Company {
  readonly name: string;
  readonly url: string;
  /** Whether `static/img/companies/<slug>.svg` exists and the company is on the logo wall. */
  readonly logo: boolean;
}

/** The intrinsic size of every logo file, in CSS pixels. */
export const logoSize = {width: 240, height: 80} as const;

export const companies: readonly Company[] = [
  // On the framework's own "Who is using Nest?" wall.
  {name: 'Roche', url: 'https://www.roche.com', logo: true},
  {name: 'Adidas', url: 'https://www.adidas.com', logo: true},
  {name: 'Decathlon', url: 'https://www.decathlon.com', logo: true},
  {name: 'Autodesk', url: 'https://www.autodesk.com', logo: true},
  {name: 'Société Générale', url: 'https://www.societegenerale.com', logo: true},
  {name: 'Capgemini', url: 'https://www.capgemini.com', logo: true},
  {name: 'Sanofi', url: 'https://www.sanofi.com', logo: true},
  {name: 'Gojob', url: 'https://gojob.com', logo: true},
  {name: 'Neoteric', url: 'https://neoteric.eu', logo: true},
  {name: 'Trilon', url: 'https://trilon.io', logo: true},
  {name: 'Valor Software', url: 'https://valor-software.com', logo: true},
  {name: 'Swingdev', url: 'https://swingdev.io', logo: false},
  {name: 'Crowdlinker', url: 'https://crowdlinker.com', logo: false},
  {name: 'Scalio', url: 'https://scal.io', logo: false},
  {name: 'Significa', url: 'https://significa.co', logo: false},
  {name: 'Quander', url: 'https://quander.io', logo: false},
  {name: 'Sclable', url: 'https://sclable.com', logo: false},
  {name: 'QingCloud', url: 'https://www.qingcloud.com', logo: false},
  {name: 'YanRongYun', url: 'https://www.yanrongyun.com', logo: false},
  {name: 'ArchitectNow', url: 'https://www.architectnow.net', logo: false},
  {name: 'Genuinebee', url: 'https://genuinebee.com', logo: false},
  {name: 'Run Players League', url: 'https://runplayersleague.com', logo: false},
  {name: 'BEDU', url: 'https://bedu.org', logo: false},
  {name: 'interfacewerk', url: 'https://interfacewerk.de', logo: false},
  {name: 'ottonova', url: 'https://www.ottonova.de', logo: false},
  {name: 'Padfever', url: 'https://padfever.com', logo: false},
  {name: 'Dayzim', url: 'https://dayzim.com', logo: false},
  {name: 'Kerberus', url: 'https://www.kerberus.com.co', logo: false},
  {name: 'Gorrion', url: 'https://gorrion.io', logo: false},
  // Products whose public source code is built on Nest.
  {name: 'Novu', url: 'https://novu.co', logo: true},
  {name: 'Twenty', url: 'https://twenty.com', logo: true},
  {name: 'Amplication', url: 'https://amplication.com', logo: true},
  {name: 'Hoppscotch', url: 'https://hoppscotch.io', logo: true},
  {name: 'Cal.com', url: 'https://cal.com', logo: true},
  {name: 'ToolJet', url: 'https://www.tooljet.com', logo: true},
  {name: 'NocoDB', url: 'https://nocodb.com', logo: true},
  {name: 'Vendure', url: 'https://vendure.io', logo: true},
  {name: 'Immich', url: 'https://immich.app', logo: true},
  {name: 'Ghostfolio', url: 'https://ghostfol.io', logo: true},
  {name: 'AFFiNE', url: 'https://affine.pro', logo: true},
  {name: 'Safe', url: 'https://safe.global', logo: true},
  {name: 'Lido', url: 'https://lido.fi', logo: true},
  {name: 'Ever Co.', url: 'https://ever.co', logo: false},
  {name: 'Misskey', url: 'https://misskey-hub.net', logo: false},
  {name: 'Docmost', url: 'https://docmost.com', logo: false},
  {name: 'Reactive Resume', url: 'https://rxresu.me', logo: false},
  {name: 'Teable', url: 'https://teable.io', logo: false},
  {name: 'Postiz', url: 'https://postiz.com', logo: false},
  {name: 'Unraid', url: 'https://unraid.net', logo: false},
  {name: 'HedgeDoc', url: 'https://hedgedoc.org', logo: false},
  {name: 'APITable', url: 'https://apitable.com', logo: false},
  {name: 'Pezzo', url: 'https://pezzo.ai', logo: false},
  {name: 'Rocketadmin', url: 'https://rocketadmin.com', logo: false},
  {name: 'HeyForm', url: 'https://heyform.net', logo: false},
  {name: 'OhMyForm', url: 'https://ohmyform.com', logo: false},
  {name: 'Laudspeaker', url: 'https://laudspeaker.com', logo: false},
  {name: 'Scrapoxy', url: 'https://scrapoxy.io', logo: false},
  {name: 'Kubero', url: 'https://www.kubero.dev', logo: false},
  {name: 'dBildungscloud', url: 'https://dbildungscloud.de', logo: false},
  {name: 'Tegon', url: 'https://tegon.ai', logo: false},
  {name: 'OpenSauced', url: 'https://opensauced.pizza', logo: false},
  {name: 'Homebridge', url: 'https://homebridge.io', logo: false},
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

/** The plain list: every company, by name. */
export const companiesByName: readonly Company[] = [...companies].sort((a, b) =>
  a.name.localeCompare(b.name, 'en', {sensitivity: 'base'}),
);
