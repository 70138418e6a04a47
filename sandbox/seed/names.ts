/** Word lists for realistic seeded records. */

export const FIRST_NAMES = [
	'Anna', 'Lukas', 'Sophie', 'Jonas', 'Emma', 'Felix', 'Mia', 'Leon', 'Hannah', 'Paul', 'Lena', 'Maximilian',
	'Olivia', 'James', 'Charlotte', 'Oliver', 'Amelia', 'Harry', 'Isla', 'George', 'Chloé', 'Louis', 'Léa', 'Hugo',
	'Camille', 'Lucas', 'Sofia', 'Mateo', 'Lucía', 'Martín', 'Giulia', 'Lorenzo', 'Chiara', 'Matteo', 'Sanne',
	'Daan', 'Fleur', 'Bram', 'Astrid', 'Erik', 'Ingrid', 'Søren', 'Freja', 'Mikael', 'Zoë', 'Noah', 'Ava', 'Ethan',
	'Grace', 'Daniel', 'Priya', 'Arjun', 'Mei', 'Kenji', 'Aisha', 'Omar', 'Katarzyna', 'Łukasz', 'Tomás', 'Nora',
	'Elif', 'Can', 'Jana', 'David', 'Sara', 'Julia', 'Marco', 'Elena', 'Ivan', 'Maria',
] as const;

export const LAST_NAMES = [
	'Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Hoffmann', 'Schulz',
	'Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Evans', 'Thomas', 'Roberts', 'Walker', 'Martin',
	'Bernard', 'Dubois', 'Lefèvre', 'Moreau', 'Laurent', 'García', 'Fernández', 'López', 'Martínez', 'Rossi',
	'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'de Vries', 'Jansen', 'van Dijk', 'Bakker', 'Visser', 'Andersson',
	'Johansson', 'Nielsen', 'Hansen', 'Larsen', 'Kowalski', 'Nowak', 'Novák', 'Horvat', 'Yılmaz', 'Kaya', 'Patel',
	'Sharma', 'Chen', 'Wang', 'Tanaka', 'Sato', 'Kim', 'Park', 'Nguyen', "O'Brien", 'Murphy', 'Kelly', 'Silva',
	'Santos', 'Costa', 'Papadopoulos', 'Ivanova', 'Popescu', 'Keller',
] as const;

/** Company countries: legal suffix, web domain ending, phone templates (# = digit), usual currency. */
export const COUNTRIES = [
	{ suffix: 'GmbH', tld: 'de', phones: ['+49 30 #######', '+49 89 ########', '+49 40 ### ####', '+49 151 ########'], currency: 'EUR', weight: 30 },
	{ suffix: 'Ltd', tld: 'co.uk', phones: ['+44 20 7### ####', '+44 161 ### ####', '+44 7700 9#####'], currency: 'GBP', weight: 15 },
	{ suffix: 'Inc.', tld: 'com', phones: ['+1 415 555 01##', '+1 (212) 555-01##', '+1 312-555-01##'], currency: 'USD', weight: 15 },
	{ suffix: 'SARL', tld: 'fr', phones: ['+33 1 ## ## ## ##', '+33 6 ## ## ## ##'], currency: 'EUR', weight: 10 },
	{ suffix: 'B.V.', tld: 'nl', phones: ['+31 20 ### ####', '+31 6 ########'], currency: 'EUR', weight: 8 },
	{ suffix: 'AG', tld: 'ch', phones: ['+41 44 ### ## ##', '+41 79 ### ## ##'], currency: 'CHF', weight: 7 },
	{ suffix: 'S.L.', tld: 'es', phones: ['+34 91 ### ## ##', '+34 6## ### ###'], currency: 'EUR', weight: 6 },
	{ suffix: 'S.r.l.', tld: 'it', phones: ['+39 02 #### ####', '+39 3## ### ####'], currency: 'EUR', weight: 5 },
	{ suffix: 'AB', tld: 'se', phones: ['+46 8 ### ### ##', '+46 70 ### ## ##'], currency: 'EUR', weight: 4 },
] as const;

export type Country = (typeof COUNTRIES)[number];

export const COMPANY_FIRST = [
	'Nordwind', 'Blue Harbor', 'Alpine', 'Cedar', 'Silverline', 'Redwood', 'Brightwater', 'Ironbridge', 'Greenfield',
	'Summit', 'Oakridge', 'Lighthouse', 'Northstar', 'Riverside', 'Granite', 'Evergreen', 'Westbrook', 'Falcon',
	'Crescent', 'Meridian', 'Sterling', 'Harbour', 'Bluestone', 'Sunrise', 'Kestrel', 'Lindqvist', 'Bergmann',
	'Rossetti', 'Vandermeer', 'Delacroix',
] as const;

export const COMPANY_SECOND = [
	'Logistics', 'Trading', 'Consulting', 'Engineering', 'Systems', 'Foods', 'Textiles', 'Interiors', 'Software',
	'Components', 'Medical', 'Energy', 'Analytics', 'Packaging', 'Automotive', 'Retail', 'Design', 'Labs',
	'Manufacturing', 'Services',
] as const;

export const FREE_MAIL = ['gmail.com', 'outlook.com', 'yahoo.com', 'proton.me', 'gmx.de', 'web.de'] as const;

export const DEPARTMENTS: ReadonlyArray<{ name: string; titles: ReadonlyArray<readonly [string, number]> }> = [
	{ name: 'Engineering', titles: [['Software Engineer', 62000], ['Senior Software Engineer', 82000], ['QA Engineer', 55000], ['Engineering Manager', 98000]] },
	{ name: 'Sales', titles: [['Account Executive', 58000], ['Sales Manager', 85000], ['Sales Development Representative', 42000]] },
	{ name: 'Finance', titles: [['Accountant', 52000], ['Financial Controller', 78000], ['Payroll Specialist', 48000]] },
	{ name: 'Operations', titles: [['Warehouse Operative', 32000], ['Logistics Coordinator', 41000], ['Operations Manager', 72000]] },
	{ name: 'Human Resources', titles: [['HR Generalist', 47000], ['Recruiter', 50000]] },
	{ name: 'Marketing', titles: [['Marketing Manager', 70000], ['Content Writer', 44000]] },
	{ name: 'Customer Support', titles: [['Support Agent', 36000], ['Support Team Lead', 52000]] },
];

/** Invoice line items: description, unit price range, quantity range. */
export const SERVICES = [
	['Consulting services (hours)', 90, 180, 1, 40],
	['Software licence, annual subscription', 480, 2400, 1, 10],
	['Cloud hosting, monthly', 49, 390, 1, 12],
	['Implementation project, fixed fee', 1500, 9500, 1, 1],
	['On-site training (day)', 650, 1400, 1, 5],
	['Support package, quarterly', 300, 1200, 1, 4],
	['Office chairs', 149, 420, 1, 20],
	['Shipping and handling', 9.9, 79, 1, 1],
	['Maintenance visit', 120, 380, 1, 6],
	['Custom development (hours)', 85, 150, 4, 80],
] as const;

/** Product catalog: SKU prefix, names, unit, price range. */
export const CATALOG = [
	{ prefix: 'OFF', unit: 'pcs', names: ['Ergonomic Office Chair', 'Standing Desk 160x80', 'Monitor Arm, Dual', 'Desk Lamp LED', 'Filing Cabinet, 3 Drawers'], price: [39, 690] },
	{ prefix: 'ELC', unit: 'pcs', names: ['USB-C Docking Station', '27" 4K Monitor', 'Wireless Keyboard', 'Noise-Cancelling Headset', 'Webcam Full HD'], price: [29, 480] },
	{ prefix: 'HWR', unit: 'box', names: ['Hex Bolt M8x40, Stainless (100)', 'Hex Nut M8 (200)', 'Wood Screw 4x40 (500)', 'Wall Plug 8 mm (100)', 'Cable Tie 300 mm (100)'], price: [4.5, 39] },
	{ prefix: 'PKG', unit: 'pcs', names: ['Shipping Carton 40x30x30', 'Bubble Wrap Roll 50 m', 'Packing Tape 66 m', 'Pallet Wrap Film', 'Padded Envelope C4'], price: [0.6, 29] },
	{ prefix: 'CLN', unit: 'l', names: ['Surface Cleaner Concentrate', 'Hand Sanitiser Gel', 'Glass Cleaner', 'Floor Care Polish'], price: [3.2, 24] },
	{ prefix: 'RAW', unit: 'kg', names: ['Aluminium Sheet 2 mm', 'Copper Wire 1.5 mm²', 'ABS Granulate, Black', 'Steel Rod 12 mm'], price: [2.1, 18] },
] as const;

export const VARIANTS = ['Black', 'White', 'Grey', 'Blue', 'Oak', 'Large', 'Small', 'Pro', 'Basic'] as const;
