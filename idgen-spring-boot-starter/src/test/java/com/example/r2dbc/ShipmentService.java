package com.example.r2dbc;

import org.springframework.data.r2dbc.core.R2dbcEntityTemplate;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

@Service
public class ShipmentService {

    private final ShipmentRepository shipments;
    private final R2dbcEntityTemplate template;

    public ShipmentService(ShipmentRepository shipments, R2dbcEntityTemplate template) {
        this.shipments = shipments;
        this.template = template;
    }

    public Mono<Shipment> ship(String address) {
        return shipments.save(new Shipment(null, address)); // the saved copy has the ID
    }

    public Mono<Shipment> importShipment(long id, String address) {
        return template.insert(new Shipment(id, address)); // inserted with its own ID, kept
    }
}
