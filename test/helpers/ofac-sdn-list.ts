import { fixtureText } from './source-fixtures.js';

const BASE_XML = fixtureText('ofac-sdn-official/sdn_advanced.digital-currency-subset.xml');

/**
 * The fixture OFAC SDN list (the official advanced XML layout) as issued on `day`, optionally with one
 * more ETH address for its first party: a new version of the list that designates that address.
 */
export function sdnList(day: string, extraAddress?: string): string {
  const [year, month, date] = day.split('-').map(Number);
  let xml = BASE_XML.replace(
    /<DateOfIssue CalendarTypeID="1">[\s\S]*?<\/DateOfIssue>/,
    `<DateOfIssue CalendarTypeID="1"><Year>${year}</Year><Month>${month}</Month><Day>${date}</Day></DateOfIssue>`,
  );
  if (extraAddress) {
    const feature = `<Feature ID="69999" FeatureTypeID="345"><FeatureVersion ID="69998" ReliabilityID="1"><Comment /><VersionDetail DetailTypeID="1432">${extraAddress}</VersionDetail></FeatureVersion><IdentityReference IdentityID="69999" IdentityFeatureLinkTypeID="1" /></Feature>\n        <Feature ID="60002"`;
    xml = xml.replace('<Feature ID="60002"', feature);
  }
  return xml;
}
