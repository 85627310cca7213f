import GRDB

extension Migrations {
    /// `v22-price-by-currency`: price order walks `price_order`, `CatalogSort.priceValue` in
    /// SQL (free first, then currency, then amount), so `49.00 EUR` and `49.00 USD` no longer
    /// tie as the same number. A virtual column: nothing is stored but its index.
    static func v22PriceByCurrency(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE course ADD COLUMN price_order INTEGER GENERATED ALWAYS AS (\(priceOrder)) VIRTUAL;
                DROP INDEX course_by_price;
                CREATE INDEX course_by_price ON course(price_order, sort_rank);
                """)
    }

    /// `CatalogSort.priceValue` of a row's price.
    static let priceOrder = """
        CASE WHEN price_minor <= 0 THEN 0 ELSE
            (1 + (unicode(upper(substr(currency, 1, 1))) - 65) * 676 + (unicode(upper(substr(currency, 2, 1))) - 65) * 26
                + (unicode(upper(substr(currency, 3, 1))) - 65)) * 1000000000 + price_minor
        END
        """
}
