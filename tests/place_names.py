"""The geocoder's names of the US states and Canada's provinces, by their postal codes:
what tests hold the area-code tables to (``phonenumbers``' descriptions)."""

STATES = {
    "Alabama": "AL", "Alaska": "AK", "Arizona": "AZ", "Arkansas": "AR", "California": "CA",
    "Colorado": "CO", "Connecticut": "CT", "Delaware": "DE", "Florida": "FL", "Georgia": "GA",
    "Hawaii": "HI", "Idaho": "ID", "Illinois": "IL", "Indiana": "IN", "Iowa": "IA",
    "Kansas": "KS", "Kentucky": "KY", "Louisiana": "LA", "Maine": "ME", "Maryland": "MD",
    "Massachusetts": "MA", "Michigan": "MI", "Minnesota": "MN", "Mississippi": "MS",
    "Missouri": "MO", "Montana": "MT", "Nebraska": "NE", "Nevada": "NV", "New Hampshire": "NH",
    "New Jersey": "NJ", "New Mexico": "NM", "New York": "NY", "North Carolina": "NC",
    "North Dakota": "ND", "Ohio": "OH", "Oklahoma": "OK", "Oregon": "OR", "Pennsylvania": "PA",
    "Rhode Island": "RI", "South Carolina": "SC", "South Dakota": "SD", "Tennessee": "TN",
    "Texas": "TX", "Utah": "UT", "Vermont": "VT", "Virginia": "VA", "Washington D.C.": "DC",
    "Washington State": "WA", "West Virginia": "WV", "Wisconsin": "WI", "Wyoming": "WY"}
"""The geocoder's names of the states ("City, ST" names end in the postal code)."""
PROVINCES = {
    "Alberta": "AB", "British Columbia": "BC", "British Colombia": "BC", "Manitoba": "MB",
    "New Brunswick": "NB", "Newfoundland and Labrador": "NL", "Ontario": "ON",
    "Quebec": "QC", "Saskatchewan": "SK"}
"""The geocoder's names of the provinces (it spells one "British Colombia")."""
