package com.example.shop;

import dev.idgen.spring.IdgenId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "purchase_orders") // not "order": ORDER is a reserved word in SQL
public class PurchaseOrder {

    @Id
    @IdgenId("orders") // idgen fills it in before the insert: ids.nextId("orders")
    private Long id;

    private String item;

    protected PurchaseOrder() { // for JPA
    }

    public PurchaseOrder(String item) {
        this.item = item;
    }

    public Long getId() {
        return id;
    }

    public String getItem() {
        return item;
    }
}
