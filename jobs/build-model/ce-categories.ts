/**
 * Each budget category in CE terms: the Interview stub groups/UCCs (IStub2014.txt) summed from the 2014
 * MTBI microdata, and the published line items (2023 tables, same labels in every cut) used as
 * calibration targets. The two must describe the same spending, so they are kept side by side here.
 */
import type { Category } from '../../src/contract/categories.js';

export interface CeCategory {
  /** Stub codes (group names or 6-digit UCCs) whose UCCs are added. */
  readonly stub: readonly string[];
  /** Stub codes whose UCCs are removed again (to split a published group). */
  readonly minus?: readonly string[];
  /**
   * Stub codes recorded as reductions of a liability: MTBI stores every principal reduction as a negative
   * COST (FMLI's EMRTPNOC/EMRTPNOP, BLS's own "mortgage principal outlays" sums of the same UCCs, are the
   * positive amounts), so the amount paid, which the category counts, is −COST.
   */
  readonly reductions?: readonly string[];
  /** Published line items (tidy `item`, footnote marks stripped) summed for the 2023 target. */
  readonly published: readonly string[];
}

/** Spending categories only: `savings` and `other_debt_payments` are derived, not CE expenditures. */
export type SpendingCategory = Exclude<Category, 'savings' | 'other_debt_payments'>;

export const CE_CATEGORIES: Readonly<Record<SpendingCategory, CeCategory>> = {
  food_home: { stub: ['FOODHOME'], published: ['Food at home'] },
  food_out: { stub: ['FOODAWAY'], published: ['Food away from home'] },
  alcoholic_beverages: { stub: ['ALCBEVG'], published: ['Alcoholic beverages'] },
  // Rent, or what an owner pays the lender and the county: interest, principal and property tax.
  mortgage_and_rent: {
    stub: ['OWNMORTG', '220211', 'RNTDWELL'],
    reductions: ['MRTPRINP'],
    published: [
      'Mortgage interest and charges',
      'Property taxes',
      'Rented dwellings',
      'Mortgage principal paid on owned property',
    ],
  },
  home_maintenance_and_repairs: {
    stub: ['OWNEXPEN'],
    published: ['Maintenance, repairs, insurance, and other expenses'],
  },
  other_lodging: { stub: ['OTHLODGE'], published: ['Other lodging'] },
  natural_gas: { stub: ['NATRLGAS'], published: ['Natural gas'] },
  electricity: { stub: ['ELECTRIC'], published: ['Electricity'] },
  heating_fuels_other: { stub: ['OTHRFUEL'], published: ['Fuel oil and other fuels'] },
  residential_phone_service: {
    stub: ['270101', '270104', '270105', '270106'],
    published: ['Residential phone service, VOIP, and phone cards'],
  },
  cellular_phone_service: { stub: ['270102'], published: ['Cellular phone service'] },
  water_and_public_services: { stub: ['WATER'], published: ['Water and other public services'] },
  household_operations: { stub: ['HHOPER'], published: ['Household operations'] },
  // Collected only by the Diary: no Interview UCCs (see docs/model.md, known limits).
  housekeeping_supplies: { stub: [], published: ['Housekeeping supplies'] },
  furniture_and_appliances: { stub: ['HHFURNSH'], published: ['Household furnishings and equipment'] },
  clothing_items_and_services: { stub: ['APPAREL'], published: ['Apparel and services'] },
  vehicle_purchase_and_lease: {
    stub: ['VEHPURCH', 'VEHFINCH', 'VEHRNTLC'],
    published: [
      'Vehicle purchases (net outlay)',
      'Vehicle finance charges',
      'Vehicle rental, leases, licenses, and other charges',
    ],
  },
  gasoline: { stub: ['GASOIL'], published: ['Gasoline and other fuels'] },
  vehicle_maintenance_and_repairs: { stub: ['CAREPAIR'], published: ['Maintenance and repairs'] },
  vehicle_insurance: { stub: ['500110'], published: ['Vehicle insurance'] },
  public_and_other_transportation: { stub: ['PUBTRANS'], published: ['Public and other transportation'] },
  health_insurance: { stub: ['HLTHINSR'], published: ['Health insurance'] },
  medical_services: { stub: ['MEDSERVS'], published: ['Medical services'] },
  prescription_drugs: { stub: ['540000'], published: ['Drugs'] },
  medical_supplies: { stub: ['MEDSUPPL'], published: ['Medical supplies'] },
  fees_and_admissions: { stub: ['FEESADM'], published: ['Fees and admissions'] },
  media_hardware_and_services: { stub: ['TVAUDIO'], published: ['Audio and visual equipment and services'] },
  pets: { stub: ['PETS'], published: ['Pets'] },
  toys_and_hobbies: {
    stub: ['PETSPLAY', 'ENTEROTH'],
    minus: ['PETS'],
    published: [
      'Toys, hobbies, and playground equipment',
      'Other entertainment supplies, equipment, and services',
    ],
  },
  personal_care: { stub: ['PERSCARE'], published: ['Personal care products and services'] },
  reading: { stub: ['READING'], published: ['Reading'] },
  education: { stub: ['EDUCATN'], published: ['Education'] },
  tobacco_and_smoking: { stub: ['TOBACCO'], published: ['Tobacco products and smoking supplies'] },
  miscellaneous: { stub: ['MISC'], published: ['Miscellaneous'] },
  cash_contributions: { stub: ['CASHCONT'], published: ['Cash contributions'] },
  life_and_personal_insurance: { stub: ['LIFEINSR'], published: ['Life and other personal insurance'] },
};
