/** The docset's `Info.plist` and its Dash feed (`NestJS.xml`). */
import {escapeHtml} from '../../../data/html';

export interface DocsetIdentity {
  /** `nestjs`: the bundle id and the search keyword (`nestjs:pipe` in Dash). */
  readonly id: string;
  /** `NestJS 8`: the name Dash and Zeal show. */
  readonly name: string;
  /** `https://docs.nestjs.com`, no trailing slash. */
  readonly siteUrl: string;
}

/**
 * `Contents/Info.plist`: the index page (`index.html`, the introduction), the page outline from
 * the `dashAnchor`s (`dashtoc`), no JavaScript (the pages have none), and the online site for
 * pages opened online (each page also names its own address in a comment).
 */
export function infoPlist(identity: DocsetIdentity): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>CFBundleIdentifier</key>
  <string>${escapeHtml(identity.id)}</string>
  <key>CFBundleName</key>
  <string>${escapeHtml(identity.name)}</string>
  <key>DocSetPlatformFamily</key>
  <string>${escapeHtml(identity.id)}</string>
  <key>isDashDocset</key>
  <true/>
  <key>isJavaScriptEnabled</key>
  <false/>
  <key>dashIndexFilePath</key>
  <string>index.html</string>
  <key>DashDocSetFamily</key>
  <string>dashtoc</string>
  <key>DashDocSetFallbackURL</key>
  <string>${escapeHtml(identity.siteUrl)}/</string>
</dict>
</plist>
`;
}

/**
 * The Dash feed: Dash and Zeal add the docset from this file's URL and download the archive
 * again whenever `version` changes.
 */
export function feedXml(version: string, archiveUrl: string): string {
  return `<entry>
  <version>${escapeHtml(version)}</version>
  <url>${escapeHtml(archiveUrl)}</url>
</entry>
`;
}
