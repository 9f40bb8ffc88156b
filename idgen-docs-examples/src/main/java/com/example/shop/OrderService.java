package com.example.shop;

import dev.idgen.core.IdService;
import org.springframework.stereotype.Service;

@Service
public class OrderService {

    private final IdService ids;
    private final PurchaseOrderRepository orders;

    public OrderService(IdService ids, PurchaseOrderRepository orders) {
        this.ids = ids;
        this.orders = orders;
    }

    /** Saves an order: its ID comes from idgen's "orders" sequence. */
    public PurchaseOrder place(String item) {
        return orders.save(new PurchaseOrder(item));
    }

    /** An ID without an entity: the next one of the "shipments" sequence. */
    public long nextTrackingNumber() {
        return ids.nextId("shipments");
    }
}
