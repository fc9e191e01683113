/**
 * What each budget category is to a lender: its name in words, for reasons and flags, and whether it
 * is a basic (spending a household cannot easily cut) or discretionary. The reasoning behind each label
 * is in docs/scores.md ("Basics and discretionary spending"), which a test keeps in step with this table.
 */
import type { Category } from '../contract/categories.js';

export type CategoryKind = 'basic' | 'discretionary';

export interface CategoryDescription {
  readonly label: string;
  readonly kind: CategoryKind;
}

export const CATEGORY_DESCRIPTIONS: Readonly<Record<Category, CategoryDescription>> = {
  food_home: { label: 'food at home', kind: 'basic' },
  food_out: { label: 'food away from home', kind: 'discretionary' },
  alcoholic_beverages: { label: 'alcoholic beverages', kind: 'discretionary' },
  mortgage_and_rent: { label: 'mortgage and rent', kind: 'basic' },
  home_maintenance_and_repairs: { label: 'home maintenance and repairs', kind: 'basic' },
  other_lodging: { label: 'other lodging', kind: 'discretionary' },
  natural_gas: { label: 'natural gas', kind: 'basic' },
  electricity: { label: 'electricity', kind: 'basic' },
  heating_fuels_other: { label: 'other heating fuels', kind: 'basic' },
  residential_phone_service: { label: 'residential phone service', kind: 'basic' },
  cellular_phone_service: { label: 'cellular phone service', kind: 'basic' },
  water_and_public_services: { label: 'water and public services', kind: 'basic' },
  household_operations: { label: 'household operations', kind: 'basic' },
  housekeeping_supplies: { label: 'housekeeping supplies', kind: 'basic' },
  furniture_and_appliances: { label: 'furniture and appliances', kind: 'discretionary' },
  clothing_items_and_services: { label: 'clothing', kind: 'basic' },
  vehicle_purchase_and_lease: { label: 'vehicle purchase and lease', kind: 'basic' },
  gasoline: { label: 'gasoline', kind: 'basic' },
  vehicle_maintenance_and_repairs: { label: 'vehicle maintenance and repairs', kind: 'basic' },
  vehicle_insurance: { label: 'vehicle insurance', kind: 'basic' },
  public_and_other_transportation: { label: 'public and other transportation', kind: 'basic' },
  health_insurance: { label: 'health insurance', kind: 'basic' },
  medical_services: { label: 'medical services', kind: 'basic' },
  prescription_drugs: { label: 'prescription drugs', kind: 'basic' },
  medical_supplies: { label: 'medical supplies', kind: 'basic' },
  fees_and_admissions: { label: 'fees and admissions', kind: 'discretionary' },
  media_hardware_and_services: { label: 'media hardware and services', kind: 'discretionary' },
  pets: { label: 'pets', kind: 'discretionary' },
  toys_and_hobbies: { label: 'toys and hobbies', kind: 'discretionary' },
  personal_care: { label: 'personal care', kind: 'basic' },
  reading: { label: 'reading', kind: 'discretionary' },
  education: { label: 'education', kind: 'basic' },
  tobacco_and_smoking: { label: 'tobacco and smoking', kind: 'discretionary' },
  miscellaneous: { label: 'miscellaneous', kind: 'discretionary' },
  cash_contributions: { label: 'cash contributions', kind: 'discretionary' },
  life_and_personal_insurance: { label: 'life and personal insurance', kind: 'basic' },
  savings: { label: 'savings', kind: 'discretionary' },
  other_debt_payments: { label: 'other debt payments', kind: 'basic' },
};
